// libhal_rvhal.so: rvhal's devices as a HAL of the oneAPI Construction Kit
// (HAL interface version 6), so OCK's clik and ComputeMux, or anything that
// loads a HAL by name (CA_HAL_DEVICE=rvhal), run kernels on rvhal devices.
// Every call maps onto the C API; failures are reported on stderr with
// rvhal's message, since the interface only returns false / null.
//
// OCK hosts pass a size_t for kernel parameters declared uint: a value
// argument wider than the kernel's declared integer is narrowed when the
// value fits, and refused with a message when it does not.
//
// Counters: the device info describes rvhal's per-hart counters as the
// construction kit's RefSi HAL does (retired_inst and cycles per "hart" at
// low verbosity, the others at high), and counter_read returns them. Devices
// are created with counters on (fast timing unless $RVHAL_TIMING says
// otherwise); launches record them only while counter_set_enabled(true).
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ock_hal_interface.h"
#include "rvhal/rvhal.h"

namespace {

constexpr uint32_t implemented_api_version = 6;
static_assert(implemented_api_version == hal::hal_t::api_version, "ock_hal_interface.h is not version 6");

void report(const char *what) { std::fprintf(stderr, "rvhal HAL: %s: %s\n", what, rvhal_last_error()); }

// A program's kernels as the SDK declared them, for narrowing.
struct program_info_deleter {
  void operator()(rvhal_program_info_t *p) const { rvhal_program_info_free(p); }
};
using program_info_ptr = std::unique_ptr<rvhal_program_info_t, program_info_deleter>;

// Does the little-endian integer of `from` bytes at p fit `to` bytes as
// type t (signed types sign-extend, others must have zero high bytes)?
bool fits(const uint8_t *p, uint64_t from, uint32_t to, uint32_t t) {
  uint64_t v = 0;
  std::memcpy(&v, p, from);
  const bool is_signed = t == RVHAL_TYPE_I8 || t == RVHAL_TYPE_I16 || t == RVHAL_TYPE_I32 || t == RVHAL_TYPE_I64;
  if (is_signed) {
    int64_t s = (int64_t)(v << (64 - 8 * from)) >> (64 - 8 * from);  // the caller's value, signed
    int64_t lo = -(INT64_C(1) << (8 * to - 1)), hi = (INT64_C(1) << (8 * to - 1)) - 1;
    return s >= lo && s <= hi;
  }
  return (v >> (8 * to)) == 0;
}

// The extension bits of an ISA string such as "rv64imafdc" or
// "rv64gc_zba_zbb" (single letters after rv32/rv64, then _-separated
// multi-letter extensions), as OCK's hal_riscv.h numbers them.
uint64_t extensions_of(const char *isa) {
  if (!isa || std::strncmp(isa, "rv", 2) != 0) return 0;
  const char *p = isa + 2;
  while (*p >= '0' && *p <= '9') p++;
  uint64_t ext = 0;
  for (; *p && *p != '_'; p++) {
    switch (*p) {
      case 'g': ext |= riscv::rv_extension_G; break;
      case 'm': ext |= riscv::rv_extension_M; break;
      case 'a': ext |= riscv::rv_extension_A; break;
      case 'f': ext |= riscv::rv_extension_F; break;
      case 'd': ext |= riscv::rv_extension_D; break;
      case 'q': ext |= riscv::rv_extension_Q; break;
      case 'c': ext |= riscv::rv_extension_C; break;
      case 'b': ext |= riscv::rv_extension_B; break;
      case 'v': ext |= riscv::rv_extension_V; break;
      case 'h': ext |= riscv::rv_extension_H; break;
      case 'e': ext |= riscv::rv_extension_E; break;
      default: break; // i, and letters OCK has no bit for
    }
  }
  static const struct { const char *name; uint64_t bit; } multi[] = {
      {"zba", riscv::rv_extension_Zba}, {"zbb", riscv::rv_extension_Zbb}, {"zbc", riscv::rv_extension_Zbc},
      {"zbs", riscv::rv_extension_Zbs}, {"zfh", riscv::rv_extension_Zfh}};
  while (*p == '_') {
    const char *start = ++p;
    while (*p && *p != '_') p++;
    for (const auto &m : multi)
      if (std::strlen(m.name) == (size_t)(p - start) && !std::strncmp(start, m.name, p - start)) ext |= m.bit;
  }
  return ext;
}

// rvhal's counters as OCK describes counters: ids are rvhal's (hart
// counters 0.., device counters 16..), names as RefSi's where they mean the
// same.
std::vector<hal::hal_counter_description_t> counter_descriptions(uint32_t harts) {
  const hal::hal_counter_log_config_t main_cfg = {hal::hal_counter_verbose_mid, hal::hal_counter_verbose_low};
  const hal::hal_counter_log_config_t detail_cfg = {hal::hal_counter_verbose_high, hal::hal_counter_verbose_none};
  auto unit = [](int u) {
    return u == RVHAL_UNIT_BYTES ? hal::hal_counter_unit_bytes
           : u == RVHAL_UNIT_CYCLES ? hal::hal_counter_unit_cycles
           : u == RVHAL_UNIT_NANOSECONDS ? hal::hal_counter_unit_nanoseconds
                                         : hal::hal_counter_unit_generic;
  };
  std::vector<hal::hal_counter_description_t> v;
  // debug_cycles and debug_instructions exist on a debug link only (the gdb
  // backend, which the environment selects for every device)
  const char *be = getenv("RVHAL_BACKEND"), *remote = getenv("RVHAL_GDB_REMOTE"), *spawn = getenv("RVHAL_GDB_SPAWN");
  const bool debug_link = (be && !strcmp(be, "gdb")) || (remote && *remote) || (spawn && *spawn);
#define RVHAL_OCK_HART_(id, name, u, desc)                                                                     \
  if (debug_link || (RVHAL_HART_COUNTER_##id != RVHAL_HART_COUNTER_DEBUG_CYCLES &&                             \
                     RVHAL_HART_COUNTER_##id != RVHAL_HART_COUNTER_DEBUG_INSTRET))                             \
  v.push_back({RVHAL_HART_COUNTER_##id,                                                                        \
               RVHAL_HART_COUNTER_##id == RVHAL_HART_COUNTER_INSTRET ? "retired_inst" : name, desc, "hart", harts, \
               unit(u),                                                                                        \
               RVHAL_HART_COUNTER_##id == RVHAL_HART_COUNTER_INSTRET ||                                        \
                       RVHAL_HART_COUNTER_##id == RVHAL_HART_COUNTER_CYCLES                                    \
                   ? main_cfg                                                                                  \
                   : detail_cfg});
  RVHAL_HART_COUNTER_MAP(RVHAL_OCK_HART_)
#undef RVHAL_OCK_HART_
#define RVHAL_OCK_DEVICE_(id, num, name, u, desc)                                                         \
  v.push_back({RVHAL_COUNTER_##id,                                                                        \
               RVHAL_COUNTER_##id == RVHAL_COUNTER_BYTES_WRITTEN ? "host_write"                           \
               : RVHAL_COUNTER_##id == RVHAL_COUNTER_BYTES_READ  ? "host_read"                            \
                                                                 : name,                                  \
               desc, "", 1, unit(u),                                                                      \
               RVHAL_COUNTER_##id == RVHAL_COUNTER_BYTES_WRITTEN || RVHAL_COUNTER_##id == RVHAL_COUNTER_BYTES_READ \
                   ? main_cfg                                                                             \
                   : detail_cfg});
  RVHAL_DEVICE_COUNTER_MAP(RVHAL_OCK_DEVICE_)
#undef RVHAL_OCK_DEVICE_
  return v;
}

class rvhal_ock_device final : public hal::hal_device_t {
 public:
  rvhal_ock_device(hal::hal_device_info_t *info, rvhal_device_t *dev) : hal::hal_device_t(info), dev_(dev) {}
  ~rvhal_ock_device() override { rvhal_device_delete(dev_); }

  hal::hal_program_t program_load(const void *data, hal::hal_size_t size) override {
    hal_program_t p;
    if (rvhal_program_load(dev_, data, size, &p)) {
      report("program_load");
      return hal::hal_invalid_program;
    }
    rvhal_program_info_t *info = nullptr;
    if (rvhal_program_info_read(data, size, &info) == RVHAL_OK) {
      std::lock_guard<std::mutex> hold(maps_lock_);
      programs_[p].reset(info);
    }
    return p;
  }

  bool find_by_clik_name(hal::hal_program_t program, const std::string &name, hal_kernel_t *k, std::string *entry) {
    std::vector<std::string> tries = {name, name + "_entry"};
    const std::string main = "_main";
    if (name.size() > main.size() && name.compare(name.size() - main.size(), main.size(), main) == 0) {
      std::string stem = name.substr(0, name.size() - main.size());
      tries.push_back(stem + "_entry");
      tries.push_back(stem);
    }
    {
      std::lock_guard<std::mutex> hold(maps_lock_);
      auto it = programs_.find(program);
      if (name == "kernel_main" && it != programs_.end() && it->second->num_kernels == 1)
        tries.push_back(it->second->kernels[0].name);
    }
    std::string first;
    for (const std::string &t : tries) {
      if (rvhal_program_find_kernel(dev_, program, t.c_str(), k) == RVHAL_OK) {
        *entry = t;
        return true;
      }
      if (first.empty()) first = rvhal_last_error();
    }
    std::fprintf(stderr, "rvhal HAL: program_find_kernel: %s%s\n", first.c_str(),
                 name == "kernel_main" ? " (kernel_main names a program's only kernel)" : "");
    return false;
  }

  // clik hosts name a kernel by the wrapper their device code defines:
  // "kernel_main" (one kernel per program) or "<kernel>_main" (blur's
  // copy_and_pad_hor_main); docs name it by its function ("vector_add").
  // The SDK's entry is "<function>_entry", an OpenCL C kernel's its own
  // name. Tried in that order: the name, <name>_entry, <stem>_entry and
  // <stem> for <stem>_main, and for kernel_main the program's only kernel.
  hal::hal_kernel_t program_find_kernel(hal::hal_program_t program, const char *name) override {
    if (!name) return hal::hal_invalid_kernel;
    hal_kernel_t k;
    std::string entry;
    if (!find_by_clik_name(program, name, &k, &entry)) return hal::hal_invalid_kernel;
    std::lock_guard<std::mutex> hold(maps_lock_);
    auto it = programs_.find(program);
    if (it != programs_.end())
      for (uint32_t i = 0; i < it->second->num_kernels; i++)
        if (entry == it->second->kernels[i].name) kernels_[k] = &it->second->kernels[i];
    return k;
  }

  bool kernel_exec(hal::hal_program_t program, hal::hal_kernel_t kernel, const hal::hal_ndrange_t *nd,
                   const hal::hal_arg_t *args, uint32_t num_args, uint32_t work_dim) override {
    if (!nd || (num_args && !args)) return false;
    std::unique_lock<std::mutex> hold(maps_lock_);  // ki points into programs_: held until the args are packed
    auto kit = kernels_.find(kernel);
    const rvhal_kernel_info_t *ki = kit == kernels_.end() ? nullptr : kit->second;
    std::vector<::hal_arg_t> a(num_args);
    std::vector<uint64_t> narrowed(num_args);
    for (uint32_t i = 0; i < num_args; i++) {
      const hal::hal_arg_t &o = args[i];
      if (o.kind == hal::hal_arg_address) {
        a[i] = o.space == hal::hal_space_local ? rvhal_arg_local(o.size) : rvhal_arg_global(o.address);
        continue;
      }
      a[i] = rvhal_arg_value(o.pod_data, o.size);
      if (!ki || i >= ki->num_args) continue;
      const rvhal_kernel_arg_info_t &d = ki->args[i];
      const bool integer = d.type == RVHAL_TYPE_UNKNOWN || rvhal_type_is_int(d.type);
      if (d.kind != RVHAL_ARG_KIND_VALUE || !integer || o.size <= d.size || o.size > 8 || !o.pod_data) continue;
      const uint8_t *bytes = static_cast<const uint8_t *>(o.pod_data);
      if (!fits(bytes, o.size, d.size, d.type)) {
        uint64_t v = 0;
        std::memcpy(&v, bytes, o.size);
        std::fprintf(stderr,
                     "rvhal HAL: kernel %s: argument %u%s%s: the host passed %" PRIu64 " bytes holding 0x%" PRIx64
                     ", which does not fit the kernel's %u-byte %s\n",
                     ki->name, i, d.name ? " " : "", d.name ? d.name : "", (uint64_t)o.size, v, d.size,
                     d.type_name ? d.type_name : rvhal_type_name(d.type));
        return false;
      }
      std::memcpy(&narrowed[i], bytes, d.size);  // little-endian: the low bytes
      a[i] = rvhal_arg_value(&narrowed[i], d.size);
    }
    hold.unlock();
    ::hal_ndrange_t r;
    std::memcpy(r.offset, nd->offset, sizeof r.offset);
    std::memcpy(r.global, nd->global, sizeof r.global);
    std::memcpy(r.local, nd->local, sizeof r.local);
    rvhal_launch_options_t lo = {};
    lo.counters_off = !counters_on_.load();
    if (rvhal_kernel_exec_ex(dev_, program, kernel, &r, a.data(), num_args, work_dim, &lo)) {
      report("kernel_exec");
      return false;
    }
    return true;
  }

  bool program_free(hal::hal_program_t program) override {
    std::unique_lock<std::mutex> hold(maps_lock_);
    for (auto it = kernels_.begin(); it != kernels_.end();) {
      auto p = programs_.find(program);
      bool mine = false;
      if (p != programs_.end())
        for (uint32_t i = 0; i < p->second->num_kernels; i++) mine |= it->second == &p->second->kernels[i];
      it = mine ? kernels_.erase(it) : std::next(it);
    }
    programs_.erase(program);
    hold.unlock();
    return ok(rvhal_program_free(dev_, program), "program_free");
  }

  hal::hal_addr_t mem_alloc(hal::hal_size_t size, hal::hal_size_t alignment) override {
    hal_addr_t addr;
    if (rvhal_mem_alloc(dev_, size, alignment, &addr)) {
      report("mem_alloc");
      return hal::hal_nullptr;
    }
    return addr;
  }
  bool mem_copy(hal::hal_addr_t dst, hal::hal_addr_t src, hal::hal_size_t size) override {
    return ok(rvhal_mem_copy(dev_, dst, src, size), "mem_copy");
  }
  bool mem_free(hal::hal_addr_t addr) override { return ok(rvhal_mem_free(dev_, addr), "mem_free"); }
  // As OCK's default mem_fill: whole copies of the pattern while they fit,
  // the remainder (size % pattern_size bytes) left as it was; any pattern
  // size (rvhal_mem_fill takes up to RVHAL_FILL_PATTERN_MAX bytes: longer
  // ones are written once and doubled with mem_copy).
  bool mem_fill(hal::hal_addr_t dst, const void *pattern, hal::hal_size_t pattern_size,
                hal::hal_size_t size) override {
    if (!pattern) return false;
    if (!pattern_size) {  // OCK's default would loop for ever
      std::fprintf(stderr, "rvhal HAL: mem_fill: pattern of 0 bytes\n");
      return false;
    }
    const hal::hal_size_t whole = size / pattern_size * pattern_size;
    if (!whole) return true;
    if (pattern_size <= RVHAL_FILL_PATTERN_MAX)
      return ok(rvhal_mem_fill(dev_, dst, pattern, pattern_size, whole), "mem_fill");
    if (!ok(rvhal_mem_write(dev_, dst, pattern, pattern_size), "mem_fill")) return false;
    for (hal::hal_size_t done = pattern_size; done < whole;) {
      hal::hal_size_t n = done < whole - done ? done : whole - done;
      if (!ok(rvhal_mem_copy(dev_, dst + done, dst, n), "mem_fill")) return false;
      done += n;
    }
    return true;
  }
  bool mem_read(void *dst, hal::hal_addr_t src, hal::hal_size_t size) override {
    return ok(rvhal_mem_read(dev_, dst, src, size), "mem_read");
  }
  bool mem_write(hal::hal_addr_t dst, const void *src, hal::hal_size_t size) override {
    return ok(rvhal_mem_write(dev_, dst, src, size), "mem_write");
  }
  // Value `index` (the hart; 0 for a device counter) of the last launch or
  // memory operation: true once per new value, as rvhal_counter_read.
  bool counter_read(uint32_t counter_id, uint64_t &out, uint32_t index) override {
    uint64_t v = 0;
    int rc = rvhal_counter_read(dev_, counter_id, &v, index);
    if (rc < 0) report("counter_read");
    if (rc != 1) return false;
    out = v;
    return true;
  }
  void counter_set_enabled(bool enable) override { counters_on_.store(enable); }

 private:
  static bool ok(int rc, const char *what) {
    if (rc) report(what);
    return rc == RVHAL_OK;
  }
  rvhal_device_t *dev_;
  std::atomic<bool> counters_on_{false};
  std::mutex maps_lock_;  // programs_ and kernels_: OCK hosts call from several threads
  std::map<hal::hal_program_t, program_info_ptr> programs_;
  std::map<hal::hal_kernel_t, const rvhal_kernel_info_t *> kernels_;
};

class rvhal_ock_hal final : public hal::hal_t {
 public:
  rvhal_ock_hal() {
    const rvhal_platform_info_t *pi = rvhal_platform_info();
    info_.platform_name = "rvhal";
    info_.num_devices = pi->num_devices;
    info_.api_version = implemented_api_version;
    devices_.resize(pi->num_devices);
    counters_.resize(pi->num_devices);
    for (uint32_t i = 0; i < pi->num_devices; i++) {
      const rvhal_device_info_t *di;
      if (rvhal_platform_device_info(i, &di)) continue;
      riscv::hal_device_info_riscv_t &d = devices_[i];
      d.type = hal::hal_device_type_riscv;
      d.word_size = di->word_size * 8;
      d.target_name = di->name;
      d.global_memory_avail = di->global_mem_size;
      d.shared_local_memory_size = di->local_mem_size;
      d.should_link = false;  // kernels come as linked ELF files (rvhal's kernel SDK)
      d.should_vectorize = false;
      d.preferred_vector_width = 0;
      d.supports_fp16 = false;
      d.supports_doubles = true;
      d.max_workgroup_size = di->max_work_group_size;
      d.is_little_endian = true;
      d.extensions = extensions_of(di->isa);
      // VLEN: devices this adapter creates take $RVHAL_VLEN (it passes no
      // options), so the catalogue reports it too.
      const char *vlen = getenv("RVHAL_VLEN");
      d.vlen = vlen && *vlen ? (uint32_t)strtoul(vlen, nullptr, 10) : di->vlen;
      if (d.vlen) d.extensions |= riscv::rv_extension_V;
      d.should_vectorize = (d.extensions & riscv::rv_extension_V) != 0;
      d.supports_doubles = (d.extensions & riscv::rv_extension_D) != 0;
      const bool fd = (d.extensions & riscv::rv_extension_D) != 0, ff = (d.extensions & riscv::rv_extension_F) != 0;
      d.abi = di->word_size == 8 ? (fd ? riscv::rv_abi_LP64D : ff ? riscv::rv_abi_LP64F : riscv::rv_abi_LP64)
                                 : (fd ? riscv::rv_abi_ILP32D : ff ? riscv::rv_abi_ILP32F : riscv::rv_abi_ILP32);
      counters_[i] = counter_descriptions(di->num_harts);
      d.num_counters = (uint32_t)counters_[i].size();
      d.counter_descriptions = counters_[i].data();
    }
  }
  const hal::hal_info_t &get_info() override { return info_; }
  const hal::hal_device_info_t *device_get_info(uint32_t index) override {
    return index < devices_.size() ? &devices_[index] : nullptr;
  }
  hal::hal_device_t *device_create(uint32_t index) override {
    if (index >= devices_.size()) return nullptr;
    rvhal_device_t *dev;
    rvhal_device_options_t o = {};
    o.counters = 1;  // recorded per launch only while counter_set_enabled(true)
    const char *timing = std::getenv("RVHAL_TIMING");
    o.timing = timing && *timing ? RVHAL_TIMING_DEFAULT : RVHAL_TIMING_FAST;
    if (rvhal_device_create(index, &o, &dev)) {
      report("device_create");
      return nullptr;
    }
    return new rvhal_ock_device(&devices_[index], dev);
  }
  bool device_delete(hal::hal_device_t *device) override {
    delete device;
    return device != nullptr;
  }

 private:
  hal::hal_info_t info_;
  std::vector<riscv::hal_device_info_riscv_t> devices_;
  std::vector<std::vector<hal::hal_counter_description_t>> counters_;
};

}  // namespace

extern "C" __attribute__((visibility("default"))) hal::hal_t *get_hal(uint32_t &api_version) {
  static rvhal_ock_hal hal_object;
  api_version = hal_object.get_info().api_version;
  return &hal_object;
}
