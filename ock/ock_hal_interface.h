// The device interface of the oneAPI Construction Kit's HAL, API version 6,
// as this adapter implements it: the same names, members and virtual
// function order as OCK's hal/include (hal.h, hal_types.h, hal_riscv.h), so
// that an OCK host (clik, ComputeMux) that loads libhal_rvhal.so and calls
// get_hal() sees the objects it expects. Declared here, in rvhal's words, so
// the adapter builds without an OCK checkout; the two must stay in step.
#ifndef RVHAL_OCK_HAL_INTERFACE_H
#define RVHAL_OCK_HAL_INTERFACE_H

#include <cstdint>
#include <string>

namespace hal {

typedef uint64_t hal_addr_t;
typedef uint64_t hal_size_t;
typedef uint64_t hal_word_t;
typedef uint64_t hal_program_t;
typedef uint64_t hal_kernel_t;

enum { hal_nullptr = 0, hal_invalid_program = 0, hal_invalid_kernel = 0 };
enum hal_arg_kind_t { hal_arg_address, hal_arg_value };
enum hal_addr_space_t { hal_space_local, hal_space_global };
enum hal_counter_verbosity_t { hal_counter_verbose_low, hal_counter_verbose_mid, hal_counter_verbose_high,
                               hal_counter_verbose_none };
enum hal_counter_unit_t { hal_counter_unit_generic, hal_counter_unit_percentage, hal_counter_unit_nanoseconds,
                          hal_counter_unit_bytes, hal_counter_unit_bytes_per_second, hal_counter_unit_kelvin,
                          hal_counter_unit_watts, hal_counter_unit_volts, hal_counter_unit_amps,
                          hal_counter_unit_hertz, hal_counter_unit_cycles };

struct hal_counter_log_config_t {
  hal_counter_verbosity_t min_verbosity_per_value;
  hal_counter_verbosity_t min_verbosity_total;
};

struct hal_counter_description_t {
  uint32_t counter_id;
  const char *name;
  const char *description;
  const char *sub_value_name;
  uint32_t contained_values;
  hal_counter_unit_t unit;
  hal_counter_log_config_t log_cfg;
};

struct hal_arg_t {
  hal_arg_kind_t kind;
  hal_addr_space_t space;
  hal_size_t size;
  union {
    hal_addr_t address;
    void *pod_data;
  };
};

struct hal_ndrange_t {
  hal_size_t offset[3];
  hal_size_t global[3];
  hal_size_t local[3];
};

enum hal_device_type_t { hal_device_type_riscv };

struct hal_device_info_t {
  hal_device_type_t type;
  uint32_t word_size; // bits
  const char *target_name;
  uint64_t global_memory_avail;
  uint64_t shared_local_memory_size;
  bool should_link;
  std::string linker_script;
  bool should_vectorize;
  uint32_t preferred_vector_width;
  bool supports_fp16;
  bool supports_doubles;
  uint32_t max_workgroup_size;
  bool is_little_endian;
  uint32_t num_counters = 0;
  hal_counter_description_t *counter_descriptions = nullptr;
  bool link_shared = false;
};

struct hal_info_t {
  const char *platform_name;
  uint32_t num_devices;
  uint32_t api_version;
};

struct hal_device_t {
  hal_device_t(hal_device_info_t *info) : device_info(info) {}
  virtual ~hal_device_t() {}
  virtual hal_kernel_t program_find_kernel(hal_program_t program, const char *name) = 0;
  virtual hal_program_t program_load(const void *data, hal_size_t size) = 0;
  virtual bool kernel_exec(hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *nd_range,
                           const hal_arg_t *args, uint32_t num_args, uint32_t work_dim) = 0;
  virtual bool program_free(hal_program_t program) = 0;
  const hal_device_info_t *get_info() const { return device_info; }
  virtual hal_addr_t mem_alloc(hal_size_t size, hal_size_t alignment) = 0;
  virtual bool mem_copy(hal_addr_t dst, hal_addr_t src, hal_size_t size) = 0; // OCK: a default over read/write
  virtual bool mem_free(hal_addr_t addr) = 0;
  virtual bool mem_fill(hal_addr_t dst, const void *pattern, hal_size_t pattern_size, hal_size_t size) = 0; // ditto
  virtual bool mem_read(void *dst, hal_addr_t src, hal_size_t size) = 0;
  virtual bool mem_write(hal_addr_t dst, const void *src, hal_size_t size) = 0;
  virtual bool counter_read(uint32_t counter_id, uint64_t &out, uint32_t index = 0) = 0;
  virtual void counter_set_enabled(bool enable) = 0;

 private:
  hal_device_info_t *device_info;
};

struct hal_t {
  static constexpr uint32_t api_version = 6;
  virtual const hal_info_t &get_info() = 0;
  virtual const hal_device_info_t *device_get_info(uint32_t device_index) = 0;
  virtual hal_device_t *device_create(uint32_t device_index) = 0;
  virtual bool device_delete(hal_device_t *device) = 0;
};

}  // namespace hal

namespace riscv {

// Extension bits and ABIs of OCK's hal_riscv.h that rvhal devices may report.
enum riscv_extension_t : uint64_t {
  rv_extension_M = 1 << 0,
  rv_extension_A = 1 << 1,
  rv_extension_F = 1 << 2,
  rv_extension_D = 1 << 3,
  rv_extension_G = rv_extension_M | rv_extension_A | rv_extension_F | rv_extension_D,
  rv_extension_Q = 1 << 5,
  rv_extension_C = 1 << 7,
  rv_extension_B = 1 << 8,
  rv_extension_V = 1 << 0xc,
  rv_extension_H = 1 << 0xe,
  rv_extension_E = 1 << 0xf,
  rv_extension_Zba = 1 << 0x10,
  rv_extension_Zbb = 1 << 0x11,
  rv_extension_Zbc = 1 << 0x12,
  rv_extension_Zbs = 1 << 0x13,
  rv_extension_Zfh = 1 << 0x14,
};
enum riscv_abi_t { rv_abi_ILP32, rv_abi_ILP32F, rv_abi_ILP32D, rv_abi_ILP32E, rv_abi_LP64, rv_abi_LP64F,
                   rv_abi_LP64D, rv_abi_LP64Q };

struct hal_device_info_riscv_t : public hal::hal_device_info_t {
  uint64_t extensions;
  uint32_t abi;
  uint32_t vlen = 0;
};

}  // namespace riscv

extern "C" hal::hal_t *get_hal(uint32_t &api_version);

#endif  // RVHAL_OCK_HAL_INTERFACE_H
