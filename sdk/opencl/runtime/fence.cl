// Memory fences (OpenCL 1.2 section 6.12.9, 2.0 atomic_work_item_fence):
// a full RISC-V fence each. rvhal's barrier() already orders memory; these
// order a work-item's own loads and stores for other work-items and harts.

void __attribute__((overloadable)) mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __attribute__((overloadable)) read_mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __attribute__((overloadable)) write_mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __attribute__((overloadable)) atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                                          memory_scope scope) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
