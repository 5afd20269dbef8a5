/* A device composed of its modules (docs/architecture.md, "Host modules"):
 * rvhal_device_create makes the device core, then each module's state from
 * the bottom up, boots the device and starts what runs beside it;
 * rvhal_device_delete takes them down from the top. The one file that
 * sees every module. */
#include "device/core.h"
#include "launch/launch.h"
#include "memory/memory.h"
#include "observe/observe.h"
#include "program/program.h"
#include "queue/queues.h"

int rvhal_device_create(uint32_t index, const rvhal_device_options_t *options, rvhal_device_t **out_device) {
  rvhal_clear_error();
  if (!out_device) return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_create: out_device is NULL");
  *out_device = NULL;
  rvhal_device_t *d;
  RVHAL_RETURN_IF_ERROR(rvhal_device_core_create(index, options, &d));
  rvhal_device_modules_t m = {0};
  int rc = rvhal_observe_create(d, &m.observe); /* a bad profile spec fails before any QEMU starts */
  if (!rc) rc = rvhal_device_core_connect(d);
  if (!rc) rc = rvhal_memory_create(d, &m.memory);
  if (!rc) rc = rvhal_programs_create(d, &m.programs);
  if (!rc) rc = rvhal_launcher_create(d, &m.launch);
  if (!rc) rc = rvhal_queues_create(&m.queues);
  rvhal_device_set_modules(d, &m);
  if (!rc) rc = rvhal_device_boot(d);
  if (!rc) rc = rvhal_observe_start(d);
  if (rc) {
    rvhal_device_delete(d);
    return rc;
  }
  *out_device = d;
  return RVHAL_OK;
}

void rvhal_device_delete(rvhal_device_t *d) {
  if (!d) return;
  const rvhal_device_modules_t m = *rvhal_device_modules(d);
  rvhal_observe_stop(m.observe);    /* the progress thread */
  rvhal_queues_destroy(m.queues);   /* before the lock: their threads may be waiting for it */
  rvhal_device_release(d);          /* deleted from a print callback: undefined, but not a loop here */
  rvhal_programs_destroy(m.programs);
  rvhal_launcher_destroy(m.launch);
  rvhal_memory_destroy(m.memory);
  rvhal_observe_destroy(m.observe); /* finishes the profile's files */
  rvhal_device_core_destroy(d);     /* stops the device */
}
