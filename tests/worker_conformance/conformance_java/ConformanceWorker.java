// The conformance worker for workers/java/serdiff/worker (tests/worker_conformance/): the ops of
// conformance_worker.py (its docstring lists them), in the same order, with the same behaviour.
// Run by workers/java/run --name conformance tests/worker_conformance/conformance_java
// ConformanceWorker.
//
// Environment: SERDIFF_CONFORMANCE_DECLINED, a reason: serve declined with it;
// SERDIFF_CONFORMANCE_FRAME_LIMIT, the frame limit; SERDIFF_CONFORMANCE_REHEARSE: rehearse on;
// SERDIFF_CONFORMANCE_NAMES_LIBRARY, a library name and version: Options.library.
// The library itself comes from SERDIFF_JAVA_LIBRARY (workers/java/run), which
// broken_library_test.py points at a changed copy.

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serdiff.worker.SerdiffWorker;
import serdiff.worker.SerdiffWorker.DeclinedOp;
import serdiff.worker.SerdiffWorker.Op;
import serdiff.worker.SerdiffWorker.Rejected;
import serdiff.worker.SerdiffWorker.Request;
import serdiff.worker.SerdiffWorker.Result;

public final class ConformanceWorker {
  /** Stands for the other libraries' TypeError: an exception the op does not classify. */
  static final class TypeError extends RuntimeException {
    private static final long serialVersionUID = 1;

    TypeError(String message) {
      super(message);
    }
  }

  static final class Staged {
    final byte[] data;
    final List<Object> steps;

    Staged(byte[] data, List<Object> steps) {
      this.data = data;
      this.steps = steps;
    }
  }

  static int runs = 0;

  static Rejected rejected(Request req) {
    if (req.input.has("offset")) {
      return new Rejected(req.string("message"), req.input.get("offset").getAsLong());
    }
    return new Rejected(req.string("message"));
  }

  static Map<String, Object> map(String k, Object v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(k, v);
    return m;
  }

  public static void main(String[] args) {
    final String lone = "\ud83d"; // half of an emoji, which no UTF-8 string holds
    final Object empty = Result.hex(new byte[0]);
    SerdiffWorker.Options o =
        new SerdiffWorker.Options("conformance")
            .peak("conformance: the library measures the peak in its own way")
            .op("echo.hex", Op.of(r -> Result.hex(SerdiffWorker.unhex(((Request) r).string("hex")))))
            .op("echo.value", Op.of(r -> Result.value(((Request) r).input.get("value"))))
            .op("reject", Op.of(r -> {
              throw rejected((Request) r);
            }))
            .op("decline", Op.of(r -> {
              throw new DeclinedOp(((Request) r).string("message"));
            }))
            .op("throw", Op.of(r -> {
              throw new TypeError(((Request) r).string("message"));
            }))
            .op("prepare.throw", new Op(r -> {
              throw new TypeError(((Request) r).string("message"));
            }, a -> empty, null))
            .op("prepare.reject", new Op(r -> {
              throw rejected((Request) r);
            }, a -> empty, null))
            .op("prepare.decline", new Op(r -> {
              throw new DeclinedOp(((Request) r).string("message"));
            }, a -> empty, null))
            .op("finish.throw", new Op(null, a -> a, r -> {
              throw new TypeError(((Request) r).string("message"));
            }))
            .op("finish.reject", new Op(null, a -> a, r -> {
              throw rejected((Request) r);
            }))
            .op("staged", new Op(
                r -> new Staged(SerdiffWorker.unhex(((Request) r).string("hex")),
                    SerdiffWorker.list("prepare")),
                a -> {
                  Staged s = (Staged) a;
                  byte[] rev = new byte[s.data.length];
                  for (int i = 0; i < rev.length; i++) rev[rev.length - 1 - i] = s.data[i];
                  List<Object> steps = SerdiffWorker.list(s.steps.toArray());
                  steps.add("run");
                  return new Staged(rev, steps);
                },
                r -> {
                  Staged s = (Staged) r;
                  List<Object> steps = SerdiffWorker.list(s.steps.toArray());
                  steps.add("finish");
                  Map<String, Object> m = map("reversed", SerdiffWorker.hex(s.data));
                  m.put("steps", steps);
                  return Result.value(m);
                }))
            .op("value.nan", Op.of(r -> Result.value(map("x", Double.NaN))))
            .op("bad.result", Op.of(r -> "neither hex nor value"))
            .op("print", Op.of(r -> {
              System.out.println("conformance: printed to stdout");
              return empty;
            }))
            .op("exit", Op.of(r -> {
              System.exit(7);
              return empty;
            }))
            .op("big", Op.of(r -> Result.hex(new byte[((Request) r).input.get("size").getAsInt()])))
            .op("surrogate", Op.of(r -> {
              String where = ((Request) r).string("where");
              if ("message".equals(where)) throw new Rejected("option [" + lone + "]");
              if ("key".equals(where)) return Result.value(map(lone, 1));
              return Result.value(map("s", "a" + lone));
            }))
            .op("count", Op.of(r -> Result.value(map("runs", ++runs))));
    String declined = System.getenv("SERDIFF_CONFORMANCE_DECLINED");
    if (declined != null && !declined.isEmpty()) o.declined(declined);
    String limit = System.getenv("SERDIFF_CONFORMANCE_FRAME_LIMIT");
    if (limit != null && !limit.isEmpty()) o.frameLimit(Integer.parseInt(limit));
    String rehearse = System.getenv("SERDIFF_CONFORMANCE_REHEARSE");
    if (rehearse != null && !rehearse.isEmpty()) o.rehearse(true);
    String library = System.getenv("SERDIFF_CONFORMANCE_NAMES_LIBRARY");
    if (library != null && !library.isEmpty()) o.library(library);
    SerdiffWorker.serve(o);
  }
}
