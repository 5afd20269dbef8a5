// Loads libhal_rvhal.so with dlopen as an OCK host does, gets the HAL
// through get_hal, and runs kernels through OCK's interface: vector_add,
// and a kernel with local memory and a barrier whose uint parameter is
// passed as a size_t (narrowed), then one that does not fit (refused).
//   test_ock_hal LIBHAL_RVHAL_SO VECTOR_ADD_ELF OCK_ADAPTER_ELF
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
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
  // the extensions of device 0's ISA string (qemu-virt: rv64imafdc), V and
  // its VLEN where $RVHAL_VLEN gives the harts a vector unit
  const uint64_t scalar = riscv::rv_extension_M | riscv::rv_extension_A | riscv::rv_extension_F |
                          riscv::rv_extension_D | riscv::rv_extension_C;
  const char *vlen = std::getenv("RVHAL_VLEN");
  if (vlen && *vlen)
    CHECK(rv->extensions == (scalar | riscv::rv_extension_V) && rv->vlen == std::strtoul(vlen, nullptr, 10) &&
          rv->should_vectorize);
  else
    CHECK(rv->extensions == scalar && rv->vlen == 0 && !rv->should_vectorize);

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
  CHECK(dev->kernel_exec(prog, k, &nd, vargs, 3, 1));
  CHECK(dev->mem_read(c.data(), dc, n * 4));
  for (uint32_t i = 0; i < n; i++) CHECK(c[i] == 1001 * i);
  CHECK(dev->program_free(prog));

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
