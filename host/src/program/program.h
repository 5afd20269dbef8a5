/* Kernel ELFs on a device, the face of program/: the module's state (the
 * loaded programs, their kernels and staged copies) and what launches and
 * queues look up in it. The program_* calls are the public API
 * (rvhal/device.h). */
#ifndef RVHAL_HOST_PROGRAM_H
#define RVHAL_HOST_PROGRAM_H

#include "base/elf_loader.h"
#include "device/core.h"
#include "rvhal/arg_pack.h"
#include "rvhal/rvhal_kernel_meta.h"

/* A kernel of a program, with its metadata when the SDK emitted it. Its
 * handle is given when program_find_kernel first names it, unique on the
 * device, so a handle can never be mistaken for another program's. */
typedef struct rvhal_kernel_entry {
  hal_kernel_t handle; /* 0 until found */
  char *name;
  uint64_t entry;
  int has_meta;
  rvhal_kernel_meta_t meta;
  const char *arg_text; /* declared "type\0name\0" per argument (in the ELF image); NULL if not recorded */
  const rvhal_opencl_meta_t *opencl; /* an OpenCL C kernel's qualifiers (in the ELF image); NULL for C SDK kernels */
} rvhal_kernel_entry_t;

/* Writes args into buf (buf_size >= the layout's total, zeroed first) as
 * `layout`, from rvhal_arg_layout (which checked them), places them
 * (arg_pack.c). */
void rvhal_arg_pack_laid_out(const hal_arg_t *args, uint32_t num_args, uint32_t word_size,
                             const rvhal_arg_layout_t *layout, void *buf, uint32_t buf_size);

/* The SDK kernels of an image (program_info.c): out has room for one per
 * symbol; *out_num is set also on failure (names to free). */
int rvhal_elf_kernels(const rvhal_elf_image_t *img, rvhal_kernel_entry_t *out, uint32_t *out_num);

/* The kernel ABI version the image records (rvhal_kernel_abi.h): 1 and
 * *out_version, 0 if it records none (a kernel on the HAL's ABI alone, or
 * built before the record), else RVHAL_BAD_ELF (program_info.c). */
int rvhal_elf_kernel_abi(const rvhal_elf_image_t *img, uint32_t *out_version);

typedef struct rvhal_program_obj {
  hal_program_t handle;
  rvhal_elf_image_t *elf;
  hal_addr_t staging;     /* segments' file bytes, in the program store (layout.h) */
  uint64_t staged_size;   /* bytes of it this program holds */
  uint32_t num_installs;  /* what a launch that (re)installs the program copies into its descriptor */
  rvhal_install_t install[RVHAL_MAX_INSTALLS];
  uint32_t num_kernels;
  uint32_t num_sdk_kernels; /* kernels[0 .. num_sdk_kernels) have SDK metadata; others are added when named */
  rvhal_kernel_entry_t *kernels;
  char file[64];          /* its file's name (rvhal_program_load_file), for messages; "" from memory */
  struct rvhal_program_obj *next;
} rvhal_program_obj_t;

typedef struct rvhal_programs rvhal_programs_t;

/* The device's program table, and the room for programs' staged copies. */
int rvhal_programs_create(const rvhal_device_t *d, rvhal_programs_t **out_programs);
/* Frees every program left. */
void rvhal_programs_destroy(rvhal_programs_t *ps);

/* Device lock held. NULL if no loaded program has that handle. */
rvhal_program_obj_t *rvhal_program_get(const rvhal_device_t *d, hal_program_t handle);
rvhal_kernel_entry_t *rvhal_kernel_get(const rvhal_program_obj_t *p, hal_kernel_t handle);
/* The loaded program that has kernel handle `kernel`; NULL if none. */
const rvhal_program_obj_t *rvhal_program_of_kernel(const rvhal_device_t *d, hal_kernel_t kernel);
/* Writes the program's segments into its staged copy. */
int rvhal_program_stage(const rvhal_device_t *d, const rvhal_program_obj_t *p);
/* The SDK kernel a caller most likely meant by `name`; NULL if none is close. */
const char *rvhal_closest_kernel(const rvhal_program_obj_t *p, const char *name);

#endif /* RVHAL_HOST_PROGRAM_H */
