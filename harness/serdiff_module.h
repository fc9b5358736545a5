/* serdiff module ABI, version 2: how a C or C++ library puts its own serializer into serdiff's
 * targets in process, without editing serdiff (docs/workers.md, "Modules").
 *
 * A module is a shared library that exports one C function (its name kept from version 1):
 *
 *     const serdiff_module* serdiff_module_v1(void);
 *
 * returning a static description: the ABI version it was built for, its name (the
 * implementation's name in reports, e.g. "my_itoa"), where it comes from (shown by `serdiff
 * list`), and a table of operations. Each operation names an interchange operation
 * (docs/workers.md: "int64.to_decimal", "cql.serialize", ...) and the FORM in which it takes its
 * input; serdiff joins it to every target whose interchange has that operation (or to the targets
 * listed in `targets`), as an oracle beside serdiff's own implementations, and it can be made the
 * subject of a run (`serdiff check --subject my_itoa`). Load it with `serdiff check --module
 * ./libmine.so` or SERDIFF_MODULES=/path/a.so:/path/b.so (fuzz binaries and properties read the
 * variable).
 *
 * Outputs go through serdiff_out, in either or both of two ways:
 *   - ROOM GIVEN UP FRONT (version 2): before the call serdiff points `room` at `room_size`
 *     writable bytes (at least SERDIFF_OUT_ROOM_MIN; not initialized) and sets `room_used` to 0.
 *     The module writes its first bytes there and sets `room_used` to how many it wrote. A short
 *     output (a number, a small document) then needs no call back into serdiff at all. The
 *     module must not change `room` or `room_size` (serdiff reads its own buffer and size).
 *   - `append(ctx, n)` returns space for n more output bytes (valid until the next append; NULL
 *     when out of memory, or when `room_used` is already past the room: return
 *     SERDIFF_REJECTED then; the n bytes are not initialized, so the module writes every one of
 *     them). The first append takes the room's bytes as they are
 *     then (`room_used` at that moment) into the front of the output, in the same buffer.
 * The output is the first `room_used` bytes of `room` followed by every appended byte, in order.
 * Breaking these rules is a broken module, reported as the verdict "module-protocol:<name>"
 * before every other rule, whatever the operation returned (a rejection could agree with
 * serdiff's own and hide it), with none of its bytes taken:
 *   - a `room_used` above `room_size`, at the first append or after the call;
 *   - on SERDIFF_OK, a `room_used` that changed after the first append.
 * A version-1 module never reads the three room fields and never sets `room_used`, so its output
 * is its appended bytes, as before.
 *
 * `error(ctx, offset, message)` records why an input is rejected or declined (offset: byte
 * offset into the input, or -1 when there is none; message: a NUL-terminated string, copied).
 * An operation returns SERDIFF_OK (the output above is its output), SERDIFF_REJECTED (the input
 * is invalid for it: compared as an error class with serdiff's own) or SERDIFF_DECLINED (it
 * cannot take this input, e.g. a type it lacks: not compared). Any other value is a rejection.
 * Operations must be deterministic and may be called from one thread at a time.
 *
 * Versions: serdiff loads modules of version 1 and 2 (`abi_version`); a version-2 module loaded
 * by a serdiff that speaks only version 1 is refused with both versions named, never called
 * with a serdiff_out that lacks the room fields. A module that uses the room must declare 2
 * (SERDIFF_MODULE_ABI); one that only appends may declare 1 to stay loadable by older serdiffs.
 *
 * Peak heap: the module runs inside serdiff's allocation tracker (harness/alloc_tracker.h),
 * so allocations through C++ operator new are counted in every build, and plain malloc in
 * sanitizer builds only. The output's one buffer (the room's bytes and the appended ones) is
 * charged to the call, as a compiled-in implementation's returned string is; the room itself is
 * serdiff's and costs the module nothing.
 */
#ifndef SERDIFF_MODULE_H_
#define SERDIFF_MODULE_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version this header describes, and the oldest one serdiff still loads. */
#define SERDIFF_MODULE_ABI 2
#define SERDIFF_MODULE_ABI_OLDEST 1

/* serdiff_out.room holds at least this many bytes: any int64 or uint64 in decimal (at most 20
 * digits and a sign) fits with room to spare. */
#define SERDIFF_OUT_ROOM_MIN 64

/* What an operation returns. */
enum serdiff_status { SERDIFF_OK = 0, SERDIFF_REJECTED = 1, SERDIFF_DECLINED = 2 };

/* The form in which an operation takes its input. */
enum serdiff_form {
  /* The interchange's "input" object as UTF-8 JSON text (docs/workers.md), for any op. */
  SERDIFF_FORM_JSON = 0,
  /* One int64 (op "int64.to_decimal"). */
  SERDIFF_FORM_INT64 = 1,
  /* One uint64 (op "uint64.to_decimal"). */
  SERDIFF_FORM_UINT64 = 2,
  /* A CQL list<int> (op "cql.serialize"): inputs of any other type are declined by serdiff
   * before the call. Output: the payload (count, then each element as a [bytes]). */
  SERDIFF_FORM_INT32_LIST = 3,
};

typedef struct serdiff_out {
  void* ctx;
  unsigned char* (*append)(void* ctx, size_t n);
  void (*error)(void* ctx, int64_t offset, const char* message);
  /* Version 2 (see above): the first output bytes go here, without a call. */
  unsigned char* room; /* room_size bytes, not initialized */
  size_t room_size;    /* >= SERDIFF_OUT_ROOM_MIN */
  size_t room_used;    /* 0 before the call; the module sets it to the bytes of room it wrote,
                          before its first append if it appends */
} serdiff_out;

/* A CQL list<int>: count elements; values[i] is ignored where nulls && nulls[i] != 0 (a null
 * element, written as the [bytes] length -1). protocol_version: 1..5 (v1 and v2 collections
 * use 2-byte counts and lengths, CQL native protocol v2 spec section 6). */
typedef struct serdiff_int32_list {
  const int32_t* values;
  const unsigned char* nulls; /* NULL: no element is null */
  size_t count;
  int protocol_version;
} serdiff_int32_list;

typedef int (*serdiff_json_fn)(const char* input_json, size_t length, serdiff_out* out);
typedef int (*serdiff_int64_fn)(int64_t value, serdiff_out* out);
typedef int (*serdiff_uint64_fn)(uint64_t value, serdiff_out* out);
typedef int (*serdiff_int32_list_fn)(const serdiff_int32_list* list, serdiff_out* out);

typedef struct serdiff_op {
  const char* op;      /* interchange operation: "int64.to_decimal", "cql.serialize", ... */
  int form;            /* enum serdiff_form: which one of the functions below is set */
  const char* targets; /* comma-separated target names it joins; NULL: every target with op */
  serdiff_json_fn json;
  serdiff_int64_fn int64;
  serdiff_uint64_fn uint64;
  serdiff_int32_list_fn int32_list;
} serdiff_op;

typedef struct serdiff_module {
  int abi_version;    /* SERDIFF_MODULE_ABI when built against this header (1 still loads) */
  const char* name;   /* the implementation's name: [a-z0-9_]+ */
  const char* origin; /* where it comes from, one line */
  const serdiff_op* ops;
  size_t op_count;
} serdiff_module;

/* The one symbol a module exports, whatever its version. */
typedef const serdiff_module* (*serdiff_module_v1_fn)(void);
#define SERDIFF_MODULE_ENTRY "serdiff_module_v1"

#ifdef __cplusplus
}
#endif

#endif /* SERDIFF_MODULE_H_ */
