/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One print path for text and JSON output (iproute2's habit): every field is
 * printed once with a key for JSON and a format for text.
 */
#ifndef L2S_PRINT_H
#define L2S_PRINT_H

#include <stdbool.h>
#include <stdint.h>

void pr_init(bool json, bool pretty);
bool pr_is_json(void);
/* Start a new document with the same settings (one JSON object per line streams). */
void pr_reset(void);

/* Containers: a NULL key opens an anonymous object/array (an array element or the top). */
void pr_open_obj(const char *key);
void pr_close_obj(void);
void pr_open_arr(const char *key);
void pr_close_arr(void);

/* Fields: text output uses @fmt (printf style, one conversion), JSON uses @key. */
void pr_str(const char *key, const char *fmt, const char *val);
void pr_u64(const char *key, const char *fmt, uint64_t val);
void pr_s64(const char *key, const char *fmt, int64_t val);
void pr_bool(const char *key, const char *fmt, bool val);
/* Text only: a literal such as a newline; ignored in JSON mode. */
void pr_text(const char *s);

/* Finish the document (closing newline in JSON mode); the next one starts afresh. */
void pr_done(void);

/* Write @s as a JSON string literal with escapes to stdout. */
void pr_json_string(const char *s);

#endif
