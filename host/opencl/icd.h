/* The rvhal OpenCL platform (an installable client driver for the Khronos
 * ICD loader): the objects behind the cl_* handles and what the files of
 * host/opencl/ share. Every object starts with the loader's dispatch table
 * pointer (cl_icd.h's rule), then a reference count.
 *
 * Mapping onto rvhal (docs/opencl.md): a cl_device_id is one rvhal device of
 * the catalogue (board and XLEN), started when a context first needs it; a
 * command queue is an rvhal_queue_t; a cl_event an rvhal_event_t (a user
 * event a timeline semaphore commands wait on); a buffer an rvhal
 * allocation; a program a kernel ELF, built from source by
 * rvhal_opencl_compile. */
#ifndef RVHAL_OPENCL_ICD_H
#define RVHAL_OPENCL_ICD_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "rvhal/rvhal.h"

extern const struct _cl_icd_dispatch rvcl_dispatch;

/* ---- objects ------------------------------------------------------------- */

struct _cl_platform_id {
  const struct _cl_icd_dispatch *dispatch;
  uint32_t magic;
};

struct _cl_device_id {
  const struct _cl_icd_dispatch *dispatch;
  uint32_t magic;                  /* RVCL_MAGIC_* while alive */
  uint32_t index;                  /* rvhal device index */
  rvhal_device_info_t info;        /* as a context's device is made (options): harts, memory sizes */
  rvhal_device_options_t options;  /* what rvhal_device_create gets (device.c) */
  char name[96], version[160], extensions[512];
  pthread_mutex_t lock;            /* guards rv and users */
  rvhal_device_t *rv;              /* started at first need, stopped with its last context */
  uint32_t users;                  /* contexts holding it */
};

typedef struct rvcl_destructor {
  void(CL_CALLBACK *fn)();         /* the object's kind of callback */
  void *user;
  struct rvcl_destructor *next;
} rvcl_destructor_t;

struct _cl_context {
  const struct _cl_icd_dispatch *dispatch;
  uint32_t magic;                  /* RVCL_MAGIC_* while alive */
  atomic_uint refs;                /* the application's (CL_CONTEXT_REFERENCE_COUNT) */
  atomic_uint life;                /* 1 while refs > 0, plus one per object that holds it */
  /* The context's devices (at most RVCL_MAX_CONTEXT_DEVICES). Each rvhal
   * device has its own memory: with several, a buffer keeps one allocation
   * per device and moves its contents to the device that uses it
   * (mem_coherence.c); a program and a kernel keep one per device. */
  cl_device_id *devices;
  cl_uint num_devices;
  cl_context_properties props[8];
  size_t num_props;                /* entries of props, with its 0 */
  void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
  void *notify_user;
  pthread_mutex_t lock;            /* guards queues and destructors */
  struct _cl_command_queue *queues; /* live queues (a buffer's free waits for them) */
  rvcl_destructor_t *destructors;
  rvhal_semaphore_t **retired;     /* released user events' semaphores (commands may still look at them) */
  size_t num_retired, cap_retired;
};

/* A launch enqueued with no wait list and no event, held back until the
 * queue is flushed (the next command, clFlush, clFinish, a blocking call,
 * the queue's release), as OpenCL allows: clFinish then runs it on the
 * calling thread (rvhal_launch_exec), which saves the two thread handoffs
 * of a queue command. It holds the request clEnqueueNDRangeKernel made;
 * the flush hands the same request to the rvhal queue. */
typedef struct rvcl_held_launch {
  cl_kernel kernel;                       /* retained while held (its program stays loaded); NULL: none */
  const rvhal_launch_request_t *launch;   /* a reference */
} rvcl_held_launch_t;

struct _cl_command_queue {
  const struct _cl_icd_dispatch *dispatch;
  uint32_t magic;                  /* RVCL_MAGIC_* while alive */
  atomic_uint refs;                /* the application's (CL_QUEUE_REFERENCE_COUNT) */
  atomic_uint life;                /* 1 while refs > 0, plus one per event that holds it */
  cl_context context;
  cl_device_id device;
  cl_command_queue_properties props;
  cl_queue_properties prop_list[8];
  size_t num_prop_list;
  rvhal_queue_t *q;
  struct _cl_command_queue *next;  /* in context->queues */
  pthread_mutex_t held_lock;
  rvcl_held_launch_t held;
  int deferred_status;             /* a held launch that failed when submitted: reported by clFinish */
  atomic_int launched;             /* a launch went to q since the last clFinish (held_launch.c) */
};

typedef struct rvcl_box {
  size_t origin[3], row_pitch, slice_pitch;
} rvcl_box_t;

typedef struct rvcl_mapping {
  void *ptr;                       /* what clEnqueueMapBuffer returned */
  size_t offset, size;
  cl_map_flags flags;
  int staged;                      /* ptr is a host copy: written back at unmap */
  int owned;                       /* ptr was allocated for the mapping (freed at unmap) */
  int boxed;                       /* a CL_MEM_USE_HOST_PTR image's region: written back as the boxes below */
  rvcl_box_t dev_box, host_box;    /* boxed: the region in the image's allocation and at ptr */
  size_t region[3];                /* boxed: bytes along x, rows, slices */
  struct rvcl_mapping *next;
} rvcl_mapping_t;

/* An image's format and geometry (image.c). Its allocation holds the
 * device's descriptor (abi/rvhal/rvhal_image.h) and then the pixels, rows
 * row_pitch bytes apart and slices (layers of arrays) slice_pitch. A 1D
 * buffer image is instead a view of its buffer's bytes (the cl_mem's
 * parent and origin as a sub-buffer's) with its descriptor apart. */
typedef struct rvcl_image {
  cl_image_format format;
  cl_image_desc desc;              /* as created */
  size_t elem_size;                /* bytes of a pixel */
  size_t row_pitch, slice_pitch;   /* of the device's copy */
  size_t host_row_pitch;           /* host_ptr's (packed where desc gave 0); a 1D array's */
  size_t host_slice_pitch;         /*   layers are host_slice_pitch apart */
  size_t data_offset;              /* bytes from the allocation's start to pixel 0: RVHAL_IMAGE_DATA_OFFSET, or 0 */
  void *host_ptr;                  /* CL_MEM_USE_HOST_PTR's (copied at creation, as buffers' are) */
  struct _cl_mem *buffer;          /* 1D buffer images: the buffer as given (retained); NULL otherwise */
  struct _cl_mem *desc_mem;        /* 1D buffer images: the descriptor's allocation, each device's own */
} rvcl_image_t;

struct _cl_mem {
  const struct _cl_icd_dispatch *dispatch;
  uint32_t magic;                  /* RVCL_MAGIC_* while alive */
  atomic_uint refs;
  cl_mem_object_type type;         /* CL_MEM_OBJECT_BUFFER (mem.c) or an image's (image.c) */
  cl_context context;
  cl_mem_flags flags;
  size_t size;
  void *host_ptr;                  /* CL_MEM_USE_HOST_PTR's (sub-buffers: parent's + origin) */
  hal_addr_t addr;                 /* device address */
  cl_mem parent;                   /* sub-buffers */
  size_t origin;
  rvcl_image_t *image;             /* images: size and addr cover the descriptor and the pixels; NULL for buffers */
  cl_mem_properties props[4];
  size_t num_props;
  /* Contexts of several devices, buffers (not sub-buffers): an allocation
   * per device (slot as in context->devices; addr is dev_addr[0]) and the
   * slots whose copy is current (mem_coherence.c). NULL/0 otherwise. */
  hal_addr_t *dev_addr;
  uint32_t valid;
  pthread_mutex_t lock;            /* guards maps and destructors */
  rvcl_mapping_t *maps;
  cl_uint map_count;
  rvcl_destructor_t *destructors;
};

struct _cl_program {
  const struct _cl_icd_dispatch *dispatch;
  uint32_t magic;                  /* RVCL_MAGIC_* while alive */
  atomic_uint refs;
  cl_context context;
  cl_device_id device;
  char *source;                    /* clCreateProgramWithSource; NULL from a binary */
  void *elf;                       /* the kernel ELF once built (or given) */
  size_t elf_size;
  rvhal_program_info_t *info;
  hal_program_t hp;                /* loaded on the device */
  cl_build_status status;
  cl_program_binary_type binary_type;
  char *options;
  int uniform_wg;                  /* its work-groups must be uniform: built with -cl-uniform-work-group-size, or
                                      from source as OpenCL C 1.x (no -cl-std=CL2.0 or later) */
  char *log;
  char *header_dir;                /* clCompileProgram's embedded headers, as files (-I at compile) */
  char **objects;                  /* LLVM IR: a compiled object's (1), a library's (its objects'), or the inputs
                                      of clLinkProgram and of a build of an object binary */
  size_t *object_sizes;
  uint32_t num_objects;
  atomic_uint kernels;             /* kernels attached (CL_INVALID_OPERATION on rebuild) */
  /* A context of several devices: the same program for each other device
   * the program is for, by context slot (NULL at device's own slot and
   * where it is not for that device); NULL with one device. */
  struct _cl_program **on_device;
  pthread_mutex_t lock;
};

/* What a kernel argument holding m carries on the device of context slot
 * `slot`, m's bytes being at addr there: the descriptor of a 1D buffer
 * image, whose bytes are its buffer's, each device's own. */
static inline hal_addr_t rvcl_mem_arg_addr(cl_mem m, int slot, hal_addr_t addr) {
  cl_mem d = m->image ? m->image->desc_mem : NULL;
  if (!d) return addr;
  return d->dev_addr ? d->dev_addr[slot] : d->addr;
}

typedef struct rvcl_arg {
  int set;
  hal_arg_t arg;                   /* pod_data points at value */
  cl_mem mem;                      /* global/constant buffers (NULL: a null pointer) */
  uint8_t value[64];               /* a value's bytes (larger: heap) */
  void *big;
} rvcl_arg_t;

struct _cl_kernel {
  const struct _cl_icd_dispatch *dispatch;
  uint32_t magic;                  /* RVCL_MAGIC_* while alive */
  atomic_uint refs;
  cl_program program;
  const rvhal_kernel_info_t *ki;
  hal_kernel_t hk;
  char *name;                      /* the OpenCL name (the SDK's entry without _entry) */
  rvcl_arg_t *args;
  /* As program->on_device: the kernel in each other device's program (its
   * arguments are this kernel's, buffers placed per device at launch). */
  struct _cl_kernel **on_device;
};

struct _cl_sampler {
  const struct _cl_icd_dispatch *dispatch;
  uint32_t magic;                  /* RVCL_MAGIC_* while alive */
  atomic_uint refs;
  cl_context context;
  cl_bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
  cl_sampler_properties props[8];  /* as given to clCreateSamplerWithProperties, with its 0 */
  size_t num_props;
};
/* What a kernel's sampler_t argument holds: the CLK_* bits image.cl decodes. */
uint32_t rvcl_sampler_bits(cl_sampler s);

typedef struct rvcl_event_callback {
  void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
  void *user;
  cl_int on;                       /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
  struct rvcl_event_callback *next;
} rvcl_event_callback_t;

struct _cl_event {
  const struct _cl_icd_dispatch *dispatch;
  uint32_t magic;                  /* RVCL_MAGIC_* while alive */
  atomic_uint refs;
  cl_context context;
  cl_command_queue queue;          /* NULL for user events */
  cl_command_type type;
  rvhal_event_t *ev;               /* the rvhal command's event; NULL for user events */
  rvhal_semaphore_t *sem;          /* user events: 0 until clSetUserEventStatus, then 1 (or failed) */
  atomic_int user_status;          /* user events: CL_SUBMITTED until set */
  pthread_mutex_t lock;            /* guards callbacks */
  rvcl_event_callback_t *callbacks;
  int callbacks_armed;             /* a completion callback is enqueued */
};

/* ---- errors (errors.c) --------------------------------------------------- */

/* Records a failing call: prints it when RVHAL_OPENCL_DEBUG=1 and hands the
 * message to the context's pfn_notify (ctx may be NULL). Returns code. */
cl_int rvcl_fail(cl_context ctx, const char *func, cl_int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same for an rvhal call that failed with status: rvhal's message. */
cl_int rvcl_fail_rvhal(cl_context ctx, const char *func, cl_int code, int status);
const char *rvcl_error_name(cl_int code);
/* The OpenCL execution status of an rvhal command status. */
cl_int rvcl_exec_status(int status);
/* A command that failed on the device (a kernel that trapped or hung, ...):
 * its one line on stderr, once per failure, unless RVHAL_OPENCL_QUIET=1
 * (an rvhal_failure_fn_t: every queue's, and a held launch's at clFinish). */
void rvcl_tell_failure(void *unused, int status, const char *failure);

/* ---- info queries (info.c) ----------------------------------------------- */

/* clGet*Info's copy-out: CL_INVALID_VALUE if value is given and too small. */
cl_int rvcl_info(const void *src, size_t size, size_t value_size, void *value, size_t *size_ret);
cl_int rvcl_info_str(const char *s, size_t value_size, void *value, size_t *size_ret);

/* ---- handles ------------------------------------------------------------- */

extern struct _cl_platform_id rvcl_platform;
/* A handle is ours and alive when its dispatch is ours and its magic word
 * names its kind (cleared when the object is freed). */
enum {
  RVCL_MAGIC_PLATFORM = 0x52564c50, RVCL_MAGIC_DEVICE, RVCL_MAGIC_CONTEXT, RVCL_MAGIC_QUEUE,
  RVCL_MAGIC_MEM, RVCL_MAGIC_PROGRAM, RVCL_MAGIC_KERNEL, RVCL_MAGIC_EVENT, RVCL_MAGIC_SAMPLER,
};
#define RVCL_VALID(obj, kind) ((obj) != NULL && (obj)->dispatch == &rvcl_dispatch && (obj)->magic == (kind))

/* ---- devices (device.c) -------------------------------------------------- */

cl_uint rvcl_num_devices(void);
/* The running rvhal device, started on first call (NULL and the message
 * in rvhal_last_error() if it cannot start). */
rvhal_device_t *rvcl_device_rv(cl_device_id d, int *out_status);
void rvcl_device_use(cl_device_id d);
void rvcl_device_unuse(cl_device_id d);
/* Highest power of two the device aligns sub-buffers and allocations to. */
#define RVCL_BASE_ALIGN 128u

/* ---- context, queues, events --------------------------------------------- */

/* Objects made from a context (queues, buffers, programs, events) hold it,
 * and events their queue, without changing the reference count the
 * application sees; the object is freed when both are gone. */
void rvcl_context_hold(cl_context c);
/* d is one of the context's devices. */
int rvcl_context_has_device(cl_context c, cl_device_id d);
/* The context's first device. */
static inline cl_device_id rvcl_context_device(cl_context c) { return c->devices[0]; }
/* Distinct devices a context may hold (a buffer's valid mask has a bit each). */
#define RVCL_MAX_CONTEXT_DEVICES 32u
/* d's slot in c->devices; -1 if not the context's. */
int rvcl_context_slot(cl_context c, cl_device_id d);
/* Keeps a released user event's semaphore until the context goes (when no
 * queue, so no command, is left to wait on it). */
void rvcl_context_retire_semaphore(cl_context c, rvhal_semaphore_t *s);
void rvcl_context_unhold(cl_context c);
void rvcl_queue_hold(cl_command_queue q);
void rvcl_queue_unhold(cl_command_queue q);
/* Translates a wait list into rvhal dependencies. events/sems need
 * num_events entries. CL_INVALID_EVENT_WAIT_LIST / CL_INVALID_CONTEXT. */
cl_int rvcl_wait_list(const char *func, cl_command_queue q, cl_uint num_events, const cl_event *events,
                      rvhal_event_t **evs, rvhal_semaphore_value_t *sems, rvhal_dependencies_t *deps);
/* Wraps a new rvhal event as the cl_event of a command (takes over ev). */
cl_int rvcl_event_wrap(cl_command_queue q, cl_command_type type, rvhal_event_t *ev, cl_event *out);
/* Waits for ev; CL_SUCCESS or the error for a failed command. */
cl_int rvcl_event_wait_rv(cl_context ctx, const char *func, rvhal_event_t *ev);

/* The wait-list scratch arrays of an enqueue call (on the stack: longer
 * lists than RVCL_MAX_WAIT are refused by rvcl_wait_list). */
#define RVCL_MAX_WAIT 4096u
#define RVCL_WAIT_LIST(q, n, list, func, deps_var, err_var)                         \
  rvhal_event_t *deps_var##_evs[(n) && (n) <= RVCL_MAX_WAIT ? (n) : 1];            \
  rvhal_semaphore_value_t deps_var##_sems[(n) && (n) <= RVCL_MAX_WAIT ? (n) : 1];  \
  rvhal_dependencies_t deps_var;                                                   \
  cl_int err_var = rvcl_wait_list(func, q, n, list, deps_var##_evs, deps_var##_sems, &deps_var)

/* Finishes an enqueue: the event (if asked), a blocking wait. */
cl_int rvcl_enqueue_done(cl_command_queue q, const char *func, cl_command_type type, int status,
                         rvhal_event_t *ev, cl_bool blocking, cl_event *out_event);

/* Submits q's held launch to its rvhal queue (every enqueue does, first). */
void rvcl_queue_submit_held(cl_command_queue q);
/* clFinish's wait, running a held launch on the calling thread. */
cl_int rvcl_queue_finish_held(cl_command_queue q);
/* Forgets the held launch (the queue is going away after submitting it). */
void rvcl_queue_drop_held(cl_command_queue q);
/* Holds launch r of kernel k (taking a reference to each). */
void rvcl_queue_hold_launch(cl_command_queue q, cl_kernel k, const rvhal_launch_request_t *r);
/* The options of every launch the platform makes: non-uniform ND-ranges
 * allowed (clEnqueueNDRangeKernel refuses them where the program needs
 * uniform work-groups). */
extern const rvhal_launch_options_t rvcl_launch_options;

/* ---- memory ---------------------------------------------------------------- */

void rvcl_mem_retain(cl_mem m);
void rvcl_mem_release(cl_mem m);
/* Marks q's device's copy of m current without copying (the contents are
 * to be undefined: CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED). */
void rvcl_mem_discard_others(cl_command_queue q, cl_mem m);
/* Contexts of several devices: allocates m on every device (and writes
 * host_ptr to each); frees those allocations. */
int rvcl_mem_alloc_all(cl_mem m, const void *host_ptr);
void rvcl_mem_free_all(cl_mem m);
/* CL_INVALID_VALUE unless [offset, offset+size) lies inside m. */
cl_int rvcl_mem_range(const char *func, cl_mem m, size_t offset, size_t size);

/* Checks a cl_mem_flags value (its unknown bits, exclusive combinations). */
cl_int rvcl_mem_check_flags(const char *fn, cl_context c, cl_mem_flags flags);
/* A new memory object of c (a reference to c, no allocation yet). */
cl_mem rvcl_mem_new(cl_context c, cl_mem_flags flags, size_t size);
/* The flags of a view of parent (a sub-buffer, a 1D buffer image): checked
 * against parent's (CL_INVALID_VALUE names the conflict), what is not given
 * taken from it. */
cl_int rvcl_mem_view_flags(const char *fn, cl_mem parent, cl_mem_flags *flags);
/* A view of [origin, origin+size) of buffer (a buffer or a sub-buffer):
 * its parent is the root buffer, whose allocation it shares. */
cl_mem rvcl_mem_view(cl_mem buffer, cl_mem_flags flags, size_t origin, size_t size);
/* Allocates m->size bytes for new object m on its context's device(s) (rv:
 * the first's) and writes init's first init_size bytes there (several
 * devices: init is NULL or holds all m->size). On failure nothing stays
 * allocated; returns the rvhal status. */
int rvcl_mem_alloc_with(cl_mem m, rvhal_device_t *rv, const void *init, size_t init_size);
/* Host access flags deny what (CL_INVALID_OPERATION). */
cl_int rvcl_mem_host_access(const char *fn, cl_mem m, cl_mem_flags denied, const char *what);

/* A read, write or copy of a box of bytes: the region's rows (region[0]
 * bytes, region[1] rows, region[2] slices) at origin in a, with pitches
 * a_row/a_slice, to or from the host (b NULL: ptr, its origin and pitches
 * b_*) or memory object b. One host callback on q copies the rows in
 * order. The caller has checked objects, region and access; owned (may be
 * NULL) is freed when the copy is done. Images' transfers (image.c) are
 * such boxes past their descriptor. */
typedef enum { RVCL_BOX_READ, RVCL_BOX_WRITE, RVCL_BOX_COPY } rvcl_box_kind_t;
cl_int rvcl_enqueue_box(const char *fn, cl_command_type type, rvcl_box_kind_t kind, cl_command_queue q, cl_mem a,
                        const rvcl_box_t *ga, cl_mem b, void *ptr, const rvcl_box_t *gb, const size_t region[3],
                        void *owned, cl_bool blocking, cl_uint n, const cl_event *list, cl_event *out);

/* Maps bytes [offset, offset+size) of m's allocation (clEnqueueMapBuffer;
 * clEnqueueMapImage maps the bytes its region spans): checks the range and
 * flags, then stages or maps them as map.c says. */
void *rvcl_map_range(const char *fn, cl_command_type type, cl_command_queue q, cl_mem m, cl_bool blocking,
                     cl_map_flags flags, size_t offset, size_t size, cl_uint n, const cl_event *list, cl_event *out,
                     cl_int *err);
/* The checks of a map's flags against m's (map.c): CL_SUCCESS or the
 * error, reported. */
cl_int rvcl_map_check(const char *fn, cl_command_queue q, cl_mem m, cl_map_flags flags);
/* Records mp (allocated by the caller) as a live mapping of m. */
void rvcl_map_add(cl_mem m, rvcl_mapping_t *mp);

/* ---- programs and kernels -------------------------------------------------- */

/* p's program for device d (p itself, or its per-device twin); NULL if p
 * is not for d. The same for kernels. */
cl_program rvcl_program_on(cl_program p, cl_device_id d);
cl_kernel rvcl_kernel_on(cl_kernel k, cl_device_id d);
/* The OpenCL name of kernel ki (the entry without the SDK's _entry). */
char *rvcl_kernel_cl_name(const rvhal_kernel_info_t *ki);
/* Compile through the binary cache ($XDG_CACHE_HOME/rvhal/opencl). */
int rvcl_compile_cached(const rvhal_opencl_compile_desc_t *desc, const char *const *objects, const size_t *object_sizes,
                        uint32_t num_objects, void **out_elf, size_t *out_size, char **out_log);

#endif /* RVHAL_OPENCL_ICD_H */
