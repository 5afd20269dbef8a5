// libhal_rvhal.so: rvhal's devices as a HAL of the oneAPI Construction Kit
// (HAL interface version 6), so OCK's clik and ComputeMux, or anything that
// loads a HAL by name (CA_HAL_DEVICE=rvhal), run kernels on rvhal devices.
// Every call maps onto the C API; failures are reported on stderr with
// rvhal's message, since the interface only returns false / null.
//
// OCK hosts pass a size_t for kernel parameters declared uint: a value
// argument wider than the kernel's declared integer is narrowed when the
// value fits, and refused with a message when it does not.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
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
    if (rvhal_program_info_read(data, size, &info) == RVHAL_OK) programs_[p].reset(info);
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
    auto it = programs_.find(program);
    if (name == "kernel_main" && it != programs_.end() && it->second->num_kernels == 1)
      tries.push_back(it->second->kernels[0].name);
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
    auto it = programs_.find(program);
    if (it != programs_.end())
      for (uint32_t i = 0; i < it->second->num_kernels; i++)
        if (entry == it->second->kernels[i].name) kernels_[k] = &it->second->kernels[i];
    return k;
  }

  bool kernel_exec(hal::hal_program_t program, hal::hal_kernel_t kernel, const hal::hal_ndrange_t *nd,
                   const hal::hal_arg_t *args, uint32_t num_args, uint32_t work_dim) override {
    if (!nd || (num_args && !args)) return false;
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
    ::hal_ndrange_t r;
    std::memcpy(r.offset, nd->offset, sizeof r.offset);
    std::memcpy(r.global, nd->global, sizeof r.global);
    std::memcpy(r.local, nd->local, sizeof r.local);
    if (rvhal_kernel_exec(dev_, program, kernel, &r, a.data(), num_args, work_dim)) {
      report("kernel_exec");
      return false;
    }
    return true;
  }

  bool program_free(hal::hal_program_t program) override {
    for (auto it = kernels_.begin(); it != kernels_.end();) {
      auto p = programs_.find(program);
      bool mine = false;
      if (p != programs_.end())
        for (uint32_t i = 0; i < p->second->num_kernels; i++) mine |= it->second == &p->second->kernels[i];
      it = mine ? kernels_.erase(it) : std::next(it);
    }
    programs_.erase(program);
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
  bool mem_fill(hal::hal_addr_t dst, const void *pattern, hal::hal_size_t pattern_size,
                hal::hal_size_t size) override {
    return ok(rvhal_mem_fill(dev_, dst, pattern, pattern_size, size), "mem_fill");
  }
  bool mem_read(void *dst, hal::hal_addr_t src, hal::hal_size_t size) override {
    return ok(rvhal_mem_read(dev_, dst, src, size), "mem_read");
  }
  bool mem_write(hal::hal_addr_t dst, const void *src, hal::hal_size_t size) override {
    return ok(rvhal_mem_write(dev_, dst, src, size), "mem_write");
  }
  // rvhal's counters are read through rvhal/counters.h; none are offered here.
  bool counter_read(uint32_t, uint64_t &, uint32_t) override { return false; }
  void counter_set_enabled(bool) override {}

 private:
  static bool ok(int rc, const char *what) {
    if (rc) report(what);
    return rc == RVHAL_OK;
  }
  rvhal_device_t *dev_;
  std::map<hal::hal_program_t, program_info_ptr> programs_;
  std::map<hal::hal_kernel_t, const rvhal_kernel_info_t *> kernels_;
};

// OCK's extension bits of an ISA string's single letters ("rv64imafdcv").
uint64_t extensions_of(const char *isa) {
  uint64_t e = 0;
  for (const char *c = isa && strlen(isa) > 4 ? isa + 4 : ""; *c && *c != '_'; c++) switch (*c) {
      case 'm': e |= riscv::rv_extension_M; break;
      case 'a': e |= riscv::rv_extension_A; break;
      case 'f': e |= riscv::rv_extension_F; break;
      case 'd': e |= riscv::rv_extension_D; break;
      case 'q': e |= riscv::rv_extension_Q; break;
      case 'c': e |= riscv::rv_extension_C; break;
      case 'v': e |= riscv::rv_extension_V; break;
      case 'h': e |= riscv::rv_extension_H; break;
      case 'g': e |= riscv::rv_extension_M | riscv::rv_extension_A | riscv::rv_extension_F | riscv::rv_extension_D; break;
      default: break;
    }
  return e;
}

class rvhal_ock_hal final : public hal::hal_t {
 public:
  rvhal_ock_hal() {
    const rvhal_platform_info_t *pi = rvhal_platform_info();
    info_.platform_name = "rvhal";
    info_.num_devices = pi->num_devices;
    info_.api_version = implemented_api_version;
    devices_.resize(pi->num_devices);
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
      // From the device's real ISA string ("rv64imafdc"; "v" with vector
      // harts), and its VLEN: devices this adapter creates take
      // $RVHAL_VLEN (it passes no options), so the catalogue reports it too.
      d.extensions = extensions_of(di->isa);
      const char *vlen = getenv("RVHAL_VLEN");
      d.vlen = vlen && *vlen ? (uint32_t)strtoul(vlen, nullptr, 10) : di->vlen;
      if (d.vlen) d.extensions |= riscv::rv_extension_V;
      d.should_vectorize = (d.extensions & riscv::rv_extension_V) != 0;
      d.supports_doubles = (d.extensions & riscv::rv_extension_D) != 0;
      d.abi = di->word_size == 8 ? riscv::rv_abi_LP64D : riscv::rv_abi_ILP32D;
    }
  }
  const hal::hal_info_t &get_info() override { return info_; }
  const hal::hal_device_info_t *device_get_info(uint32_t index) override {
    return index < devices_.size() ? &devices_[index] : nullptr;
  }
  hal::hal_device_t *device_create(uint32_t index) override {
    if (index >= devices_.size()) return nullptr;
    rvhal_device_t *dev;
    if (rvhal_device_create(index, nullptr, &dev)) {
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
};

}  // namespace

extern "C" __attribute__((visibility("default"))) hal::hal_t *get_hal(uint32_t &api_version) {
  static rvhal_ock_hal hal_object;
  api_version = hal_object.get_info().api_version;
  return &hal_object;
}
