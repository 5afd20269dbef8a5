// Loads libhal_rvhal.so with dlopen as an OCK host does, gets the HAL
// through get_hal, and runs kernels through OCK's interface: vector_add,
// and a kernel with local memory and a barrier whose uint parameter is
// passed as a size_t (narrowed), then one that does not fit (refused).
// Also: the extension bits match the device's ISA string (read from rvhal
// itself, through the adapter's own dependency); the counters are
// described as RefSi's (retired_inst and cycles per hart at low verbosity)
// and read after a launch with counter_set_enabled(true), none without;
// mem_fill takes what OCK's default takes (3 bytes over 10: 3 whole
// copies, the last byte untouched; a 200-byte pattern); threads loading,
// finding and freeing programs at once.
//   test_ock_hal LIBHAL_RVHAL_SO VECTOR_ADD_ELF OCK_ADAPTER_ELF
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "ock_hal_interface.h"

static int failures;
#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                            \
    }                                                                        \
  } while (0)

static std::vector<char> read_file(const char *path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

static hal::hal_arg_t global_arg(hal::hal_addr_t a) {
  hal::hal_arg_t r;
  r.kind = hal::hal_arg_address;
  r.space = hal::hal_space_global;
  r.size = 0;
  r.address = a;
  return r;
}

// The device's ISA string from rvhal (dlsym on the adapter's handle also
// searches the libraries it depends on), and the bits it must give.
struct rvhal_device_info_head {  // the start of rvhal_device_info_t
  const char *name, *board, *isa;
  uint32_t word_size, num_harts;
};
static void check_extensions(void *lib, const riscv::hal_device_info_riscv_t *rv) {
  auto info = reinterpret_cast<int (*)(uint32_t, const rvhal_device_info_head **)>(
      dlsym(lib, "rvhal_platform_device_info"));
  CHECK(info != nullptr);
  const rvhal_device_info_head *di = nullptr;
  if (!info || info(0, &di) || !di || !di->isa) return;
  std::string isa = di->isa;
  std::string letters = isa.substr(4, isa.find('_') == std::string::npos ? std::string::npos : isa.find('_') - 4);
  if (letters.find('g') != std::string::npos) letters += "mafd";
  uint64_t want = 0;
  const char *order = "mafd";
  for (int i = 0; i < 4; i++)
    if (letters.find(order[i]) != std::string::npos) want |= 1ull << i;
  if (letters.find('c') != std::string::npos) want |= riscv::rv_extension_C;
  if (letters.find('v') != std::string::npos) want |= riscv::rv_extension_V;
  const char *vlen = std::getenv("RVHAL_VLEN"); /* vector harts: the catalogue's ISA has no v, the adapter adds it */
  if (vlen && *vlen) want |= riscv::rv_extension_V;
  const uint64_t known = riscv::rv_extension_M | riscv::rv_extension_A | riscv::rv_extension_F |
                         riscv::rv_extension_D | riscv::rv_extension_C | riscv::rv_extension_V;
  std::printf("device 0: ISA %s, extensions 0x%llx\n", di->isa, (unsigned long long)rv->extensions);
  CHECK((rv->extensions & known) == want);
}

// RefSi's shape: retired_inst and cycles per hart, at low verbosity;
// every description complete; ids unique. Returns the harts.
static uint32_t check_counter_descriptions(const hal::hal_device_info_t *di) {
  CHECK(di->num_counters >= 2 && di->counter_descriptions != nullptr);
  if (!di->counter_descriptions) return 0;
  int found = 0;
  uint32_t harts = 0;
  for (uint32_t i = 0; i < di->num_counters; i++) {
    const hal::hal_counter_description_t &c = di->counter_descriptions[i];
    CHECK(c.name && c.description && c.sub_value_name && c.contained_values >= 1);
    for (uint32_t j = 0; j < i; j++) CHECK(di->counter_descriptions[j].counter_id != c.counter_id);
    if (!c.name) continue;
    const bool main = !std::strcmp(c.name, "retired_inst") || !std::strcmp(c.name, "cycles");
    if (main) {
      found++;
      CHECK(!std::strcmp(c.sub_value_name, "hart"));
      CHECK(c.log_cfg.min_verbosity_total == hal::hal_counter_verbose_low);
      harts = c.contained_values;
    } else if (c.sub_value_name && !std::strcmp(c.sub_value_name, "hart")) {
      CHECK(c.log_cfg.min_verbosity_per_value == hal::hal_counter_verbose_high);  // further ones: higher verbosity
    }
    CHECK(!std::strcmp(c.name, "cycles") == (c.unit == hal::hal_counter_unit_cycles) ||
          std::strstr(c.name, "cycles"));
  }
  CHECK(found == 2);
  return harts;
}

static uint32_t counter_id(const hal::hal_device_info_t *di, const char *name) {
  for (uint32_t i = 0; i < di->num_counters; i++)
    if (!std::strcmp(di->counter_descriptions[i].name, name)) return di->counter_descriptions[i].counter_id;
  return ~0u;
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: test_ock_hal LIBHAL_RVHAL_SO VECTOR_ADD_ELF OCK_ADAPTER_ELF [TWO_KERNELS_ELF]\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  auto get = reinterpret_cast<hal::hal_t *(*)(uint32_t &)>(dlsym(lib, "get_hal"));
  CHECK(get != nullptr);
  if (!get) return 1;
  uint32_t version = 0;
  hal::hal_t *hal = get(version);
  CHECK(hal != nullptr && version == 6);
  const hal::hal_info_t &info = hal->get_info();
  CHECK(info.api_version == 6 && info.num_devices >= 1 && !std::strcmp(info.platform_name, "rvhal"));
  const hal::hal_device_info_t *di = hal->device_get_info(0);
  CHECK(di && di->type == hal::hal_device_type_riscv && di->word_size == 64 && di->max_workgroup_size > 0);
  CHECK(hal->device_get_info(info.num_devices) == nullptr);
  const auto *rv = static_cast<const riscv::hal_device_info_riscv_t *>(di);
  CHECK(rv->abi == riscv::rv_abi_LP64D && (rv->extensions & riscv::rv_extension_D));
  check_extensions(lib, rv);
  const uint32_t harts = check_counter_descriptions(di);
  // V and its VLEN where $RVHAL_VLEN gives the harts a vector unit
  const char *vlen = std::getenv("RVHAL_VLEN");
  if (vlen && *vlen)
    CHECK((rv->extensions & riscv::rv_extension_V) && rv->vlen == std::strtoul(vlen, nullptr, 10) &&
          rv->should_vectorize);
  else
    CHECK(!(rv->extensions & riscv::rv_extension_V) && rv->vlen == 0 && !rv->should_vectorize);

  // A board with vector harts of its own (boards/qemu-virt-rvv: VLEN 256)
  // reports V and its VLEN without $RVHAL_VLEN.
  for (uint32_t i = 0; i < info.num_devices && !(vlen && *vlen); i++) {
    const auto *d = static_cast<const riscv::hal_device_info_riscv_t *>(hal->device_get_info(i));
    if (d && d->target_name && std::strstr(d->target_name, "qemu-virt-rvv-"))
      CHECK((d->extensions & riscv::rv_extension_V) && d->vlen == 256 && d->should_vectorize);
  }

  hal::hal_device_t *dev = hal->device_create(0);
  CHECK(dev != nullptr);
  if (!dev) return 1;
  CHECK(dev->get_info() == di);

  // vector_add, the ELF loaded from memory.
  std::vector<char> elf = read_file(argv[2]);
  hal::hal_program_t prog = dev->program_load(elf.data(), elf.size());
  CHECK(prog != hal::hal_invalid_program);
  hal::hal_kernel_t k = dev->program_find_kernel(prog, "vector_add_entry");
  CHECK(k != hal::hal_invalid_kernel);
  // clik's name for it (the function, not the entry) finds the same entry.
  CHECK(dev->program_find_kernel(prog, "vector_add") == k);
  // ... and as clik's hosts name it: kernel_main, the wrapper of a
  // program's only kernel, or <function>_main.
  CHECK(dev->program_find_kernel(prog, "kernel_main") == k);
  CHECK(dev->program_find_kernel(prog, "vector_add_main") == k);
  CHECK(dev->program_find_kernel(prog, "no_such_kernel") == hal::hal_invalid_kernel);
  const uint32_t n = 64;
  std::vector<uint32_t> a(n), b(n), c(n);
  for (uint32_t i = 0; i < n; i++) a[i] = i, b[i] = 1000 * i;
  hal::hal_addr_t da = dev->mem_alloc(n * 4, 16), db = dev->mem_alloc(n * 4, 16), dc = dev->mem_alloc(n * 4, 16);
  CHECK(da && db && dc);
  CHECK(dev->mem_write(da, a.data(), n * 4) && dev->mem_write(db, b.data(), n * 4));
  const uint32_t pattern = 0xdeadbeef;
  CHECK(dev->mem_fill(dc, &pattern, 4, n * 4));
  hal::hal_arg_t vargs[3] = {global_arg(da), global_arg(db), global_arg(dc)};
  hal::hal_ndrange_t nd = {{0, 0, 0}, {n, 1, 1}, {16, 1, 1}};
  // Counters: off by default (no value), then on.
  const uint32_t inst = counter_id(di, "retired_inst"), cyc = counter_id(di, "cycles");
  uint64_t v = 0;
  CHECK(dev->kernel_exec(prog, k, &nd, vargs, 3, 1));
  CHECK(!dev->counter_read(inst, v, 0));
  dev->counter_set_enabled(true);
  CHECK(dev->kernel_exec(prog, k, &nd, vargs, 3, 1));
  uint64_t insts = 0, cycles = 0;
  for (uint32_t h = 0; h < harts; h++) {
    uint64_t i = 0, cy = 0;
    bool got_i = dev->counter_read(inst, i, h), got_c = dev->counter_read(cyc, cy, h);
    CHECK(got_i == got_c);
    insts += got_i ? i : 0;
    cycles += got_c ? cy : 0;
  }
  std::printf("vector_add of %u: retired_inst %llu, cycles %llu over %u harts\n", n, (unsigned long long)insts,
              (unsigned long long)cycles, harts);
  CHECK(insts >= n && cycles > 0);  // at least one instruction per element
  CHECK(!dev->counter_read(inst, v, 0));  // read already
  CHECK(!dev->counter_read(inst, v, harts));  // no such hart (rvhal says why on stderr)
  dev->counter_set_enabled(false);
  CHECK(dev->kernel_exec(prog, k, &nd, vargs, 3, 1));
  CHECK(!dev->counter_read(inst, v, 0));
  CHECK(dev->mem_read(c.data(), dc, n * 4));
  for (uint32_t i = 0; i < n; i++) CHECK(c[i] == 1001 * i);
  CHECK(dev->program_free(prog));

  // mem_fill as OCK's default: whole patterns, the remainder untouched.
  {
    std::vector<uint8_t> buf(16, 0xee), back(16);
    CHECK(dev->mem_write(dc, buf.data(), 16));
    const uint8_t p3[3] = {1, 2, 3};
    CHECK(dev->mem_fill(dc, p3, 3, 10));
    CHECK(dev->mem_read(back.data(), dc, 16));
    for (uint32_t i = 0; i < 16; i++) CHECK(back[i] == (i < 9 ? p3[i % 3] : 0xee));
    std::vector<uint8_t> p200(200), big(n * 4);
    for (uint32_t i = 0; i < 200; i++) p200[i] = (uint8_t)(i * 7 + 1);
    CHECK(dev->mem_fill(dc, p200.data(), 200, n * 4));  // 1 whole copy of 200 in 256 bytes
    CHECK(dev->mem_read(big.data(), dc, n * 4));
    for (uint32_t i = 0; i < 200; i++) CHECK(big[i] == p200[i]);
    CHECK(dev->mem_fill(dc, p3, 3, 2));  // nothing whole: nothing written, as OCK's default
    CHECK(!dev->mem_fill(dc, nullptr, 3, 9));
  }

  // Programs loaded, looked up and freed from several threads at once.
  {
    std::vector<std::thread> threads;
    int thread_failures[4] = {0, 0, 0, 0};
    for (int t = 0; t < 4; t++)
      threads.emplace_back([&, t] {
        for (int i = 0; i < 10; i++) {
          hal::hal_program_t p = dev->program_load(elf.data(), elf.size());
          hal::hal_kernel_t kk = p ? dev->program_find_kernel(p, "vector_add") : hal::hal_kernel_t(hal::hal_invalid_kernel);
          if (!p || !kk || !dev->program_free(p)) thread_failures[t]++;
        }
      });
    for (auto &th : threads) th.join();
    for (int t = 0; t < 4; t++) CHECK(thread_failures[t] == 0);
  }

  // Local memory, a barrier, and `uint add` given as a size_t.
  std::vector<char> elf2 = read_file(argv[3]);
  hal::hal_program_t prog2 = dev->program_load(elf2.data(), elf2.size());
  hal::hal_kernel_t k2 = dev->program_find_kernel(prog2, "ock_rotate_entry");
  CHECK(prog2 != hal::hal_invalid_program && k2 != hal::hal_invalid_kernel);
  CHECK(dev->program_find_kernel(prog2, "ock_rotate_main") == k2);
  CHECK(dev->program_find_kernel(prog2, "kernel_main") == k2);
  uint64_t add = 7;  // size_t, as clik's hosts pass it
  const uint32_t group = 8;
  hal::hal_arg_t rargs[4];
  rargs[0] = global_arg(da);
  rargs[1] = global_arg(dc);
  rargs[2].kind = hal::hal_arg_address;
  rargs[2].space = hal::hal_space_local;
  rargs[2].size = group * 4;
  rargs[2].address = 0;
  rargs[3].kind = hal::hal_arg_value;
  rargs[3].space = hal::hal_space_global;
  rargs[3].size = sizeof add;
  rargs[3].pod_data = &add;
  hal::hal_ndrange_t nd2 = {{0, 0, 0}, {n, 1, 1}, {group, 1, 1}};
  CHECK(dev->kernel_exec(prog2, k2, &nd2, rargs, 4, 1));
  CHECK(dev->mem_read(c.data(), dc, n * 4));
  for (uint32_t i = 0; i < n; i++) {
    uint32_t want = a[i / group * group + (i % group + 1) % group] + 7;
    if (c[i] != want) std::fprintf(stderr, "out[%u] = %u, expected %u\n", i, c[i], want);
    CHECK(c[i] == want);
  }
  // A value that does not fit the kernel's uint: refused, nothing runs.
  add = UINT64_C(1) << 40;
  std::fprintf(stderr, "(an error about argument 3 is expected next)\n");
  CHECK(!dev->kernel_exec(prog2, k2, &nd2, rargs, 4, 1));
  CHECK(dev->mem_free(da) && dev->mem_free(db) && dev->mem_free(dc));
  CHECK(dev->program_free(prog2));
  if (argc == 5) { // kernel_main in a program of several kernels names none of them
    std::vector<char> elf3 = read_file(argv[4]);
    hal::hal_program_t prog3 = dev->program_load(elf3.data(), elf3.size());
    CHECK(prog3 != hal::hal_invalid_program);
    CHECK(dev->program_find_kernel(prog3, "kernel_main") == hal::hal_invalid_kernel);
    CHECK(dev->program_free(prog3));
  }
  CHECK(hal->device_delete(dev));
  std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
