/* Markers and barriers: commands that only order others (their events
 * end once what they wait for has). On an out-of-order queue a barrier
 * also holds back every later command, and a marker or barrier with an
 * empty wait list waits for every earlier one (rvhal's fences). */
#include "icd.h"

static cl_int marker(const char *fn, cl_command_queue q, cl_command_type type, cl_uint n, const cl_event *list,
                     cl_event *out) {
  const int barrier = type == CL_COMMAND_BARRIER;
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, fn, CL_INVALID_COMMAND_QUEUE, "%p", (void *)q);
  RVCL_WAIT_LIST(q, n, list, fn, deps, err);
  if (err != CL_SUCCESS) return err;
  rvhal_event_t *ev = NULL;
  int st = barrier ? rvhal_enqueue_barrier(q->q, &deps, out ? &ev : NULL)
                   : rvhal_enqueue_marker(q->q, &deps, out ? &ev : NULL);
  return rvcl_enqueue_done(q, fn, type, st, ev, CL_FALSE, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list,
                                                            cl_event *out) {
  return marker("clEnqueueMarkerWithWaitList", q, CL_COMMAND_MARKER, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list,
                                                             cl_event *out) {
  return marker("clEnqueueBarrierWithWaitList", q, CL_COMMAND_BARRIER, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *out) {
  if (!out) return rvcl_fail(NULL, "clEnqueueMarker", CL_INVALID_VALUE, "event is NULL");
  return marker("clEnqueueMarker", q, CL_COMMAND_MARKER, 0, NULL, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q) {
  return marker("clEnqueueBarrier", q, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event *list) {
  if (n == 0 || !list) return rvcl_fail(NULL, "clEnqueueWaitForEvents", CL_INVALID_VALUE, "num_events=%u", n);
  return marker("clEnqueueWaitForEvents", q, CL_COMMAND_BARRIER, n, list, NULL);
}
