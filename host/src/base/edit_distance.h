/* Edit distance (insertions, deletions, substitutions) for "did you mean"
 * suggestions: the library's kernel names and the CLI's commands and
 * options use this one definition. */
#ifndef RVHAL_HOST_EDIT_DISTANCE_H
#define RVHAL_HOST_EDIT_DISTANCE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* SIZE_MAX for words over 127 characters: never a typo worth suggesting. */
static inline size_t rvhal_edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 127 || lb > 127) return SIZE_MAX;
  size_t row[128];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

#endif /* RVHAL_HOST_EDIT_DISTANCE_H */
