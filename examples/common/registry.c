/* Every example, in the order the demo runs them. */
#include "example.h"

#define X(name) extern const example_t example_##name;
#include "examples.def"
#undef X

const example_t *const rvhal_examples[] = {
#define X(name) &example_##name,
#include "examples.def"
#undef X
    NULL,
};
