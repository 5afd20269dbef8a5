/* The words of a profile specification ("table", "csv=FILE", "trace=FILE",
 * "svg=FILE", comma-separated): read here, below the device, so options
 * can be checked where they are resolved; the profile (observe/profile.c)
 * opens what they name. */
#ifndef RVHAL_BASE_PROFILE_SPEC_H
#define RVHAL_BASE_PROFILE_SPEC_H

typedef enum {
  RVHAL_PROFILE_OUT_TABLE,
  RVHAL_PROFILE_OUT_CSV,
  RVHAL_PROFILE_OUT_TRACE,
  RVHAL_PROFILE_OUT_SVG,
} rvhal_profile_out_t;

/* Each output spec names, in order, to fn (file NULL for the table); fn
 * NULL only checks the words. Returns RVHAL_OK, the first error fn
 * returns, or RVHAL_INVALID_ARGUMENT naming the word that is none. */
typedef int (*rvhal_profile_out_fn_t)(void *user, rvhal_profile_out_t out, const char *file);
int rvhal_profile_spec_each(const char *spec, rvhal_profile_out_fn_t fn, void *user);

#endif /* RVHAL_BASE_PROFILE_SPEC_H */
