// serdiff's worker protocol (version 1) for a worker written in Java, so that the worker only
// writes its operations. The protocol and the contract this class follows to the letter are in
// docs/workers.md ("The worker protocol", "The worker library contract");
// tests/worker_conformance/ checks every rule (ctest workers.ConformanceJava).
//
// A worker calls serve once, with its name and its ops in the order the hello lists them:
//
//   SerdiffWorker.serve(new SerdiffWorker.Options("java_bson")
//       .op("bson.decode", new SerdiffWorker.Op(prepare, run, finish))
//       .op("bson.array_keys", SerdiffWorker.Op.of(req -> ...)));
//
// An op's steps: prepare turns the request into the library's own values (optional; without it
// run receives the Request), run is the library's call (the only step measured for the peak and
// timed for "time", in runs of B calls for "batch": B), finish turns run's result into a Result
// (optional; without it run's result must itself be a Result). A step says no by throwing Rejected (the library refused the input;
// offset in bytes, or -1 when unknown) or DeclinedOp (the library cannot take this input); any
// other Throwable is classified as the contract says: in run a rejection with the text
// "Class: message" (the class's simple name), in prepare a decline "input not taken: ...", in
// finish a decline "result not presentable: ...".
//
// JSON is Gson's (Debian 12: libgoogle-gson-java, /usr/share/java/gson.jar), read in its strict
// mode. The peak is the bytes the call allocated on the Java heap
// (com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes, after minus before).
// Build and run: workers/java/run (docs/workers.md, "Java").
package serdiff.worker;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.BufferedInputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class SerdiffWorker {
  private SerdiffWorker() {}

  /** The longest frame the protocol allows: 256 MiB (docs/workers.md). */
  public static final int MAX_FRAME = 268435456;

  /** The hello's default sentence on how the peak is measured. */
  public static final String PEAK_TEXT =
      "bytes the call allocated on the Java heap (ThreadMXBean.getCurrentThreadAllocatedBytes "
          + "after minus before, run with C1 only so that escape analysis never removes an "
          + "allocation): at least the call's peak, since memory freed during the call is "
          + "still counted; memory outside the Java heap (direct buffers, JNI) is not seen; a "
          + "call that ends in OutOfMemoryError reports the heap's capacity "
          + "(Runtime.maxMemory(), a little under -Xmx) as its peak";

  /** The reserved op that writes an upstream reproducer (docs/workers.md). */
  public static final String UPSTREAM_OP = "serdiff.upstream";

  private static final int PROTOCOL_VERSION = 1;
  private static final long MAX_ID = (1L << 53) - 1;
  private static final int MAX_TIMED = 100000;
  private static final int MAX_BATCH = 1000000;
  private static final int REHEARSE_MAX_REQUEST = 256 << 10;
  private static final int EXIT_EOF = 0;
  private static final int EXIT_PROTOCOL = 2;
  private static final int EXIT_WORKER_BUG = 4;

  /** Thrown by a step when the implementation refused the input. */
  public static final class Rejected extends RuntimeException {
    public final long offset;

    /** offset: bytes into the input, or -1 (any negative) when the implementation knows none. */
    public Rejected(String message, long offset) {
      super(message);
      this.offset = offset;
    }

    public Rejected(String message) {
      this(message, -1);
    }
  }

  /** Thrown by a step when the implementation cannot take this input: not compared. */
  public static final class DeclinedOp extends RuntimeException {
    public DeclinedOp(String message) {
      super(message);
    }
  }

  /** What an op answers: bytes (hex) or a JSON value. */
  public static final class Result {
    final byte[] bytes;
    final Object value;
    final boolean isValue;

    private Result(byte[] bytes, Object value, boolean isValue) {
      this.bytes = bytes;
      this.value = value;
      this.isValue = isValue;
    }

    /** The output bytes (sent as lower-case hex). */
    public static Result hex(byte[] bytes) {
      return new Result(bytes == null ? new byte[0] : bytes, null, false);
    }

    /**
     * A JSON value: a Gson JsonElement, or null, a Boolean, a Number, a String, a Map with String
     * keys, a List of these. A NaN or an infinity, a lone surrogate, or another class makes the
     * answer a decline ("result not presentable: ...").
     */
    public static Result value(Object value) {
      return new Result(null, value, true);
    }
  }

  /** One request as prepare (or run without prepare) sees it. */
  public static final class Request {
    public final long id;
    public final String op;
    /** The input object. */
    public final JsonObject input;
    /** The request's whole JSON text, as sent (key order and repeated keys kept). */
    public final String text;

    Request(long id, String op, JsonObject input, String text) {
      this.id = id;
      this.op = op;
      this.input = input;
      this.text = text;
    }

    /** The input's string member key, or null when it is missing or not a string. */
    public String string(String key) {
      JsonElement e = input.get(key);
      return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString()
          ? e.getAsString()
          : null;
    }
  }

  /** One step of an op. */
  @FunctionalInterface
  public interface Step {
    Object apply(Object arg) throws Exception;
  }

  /** One operation: run is required, prepare and finish are optional (null). */
  public static final class Op {
    final Step prepare;
    final Step run;
    final Step finish;

    public Op(Step prepare, Step run, Step finish) {
      if (run == null) throw new IllegalArgumentException("SerdiffWorker.Op: run is required");
      this.prepare = prepare;
      this.run = run;
      this.finish = finish;
    }

    /** An op of one step, a function of the Request returning a Result. */
    public static Op of(Step run) {
      return new Op(null, run, null);
    }
  }

  /** serve's named arguments (docs/workers.md, "Starting"). */
  public static final class Options {
    final String name;
    final Map<String, Op> ops = new LinkedHashMap<>();
    String peak = PEAK_TEXT;
    String declined;
    String library;
    int frameLimit = MAX_FRAME;
    boolean rehearse;

    public Options(String name) {
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException("SerdiffWorker.serve: name must be a non-empty string");
      }
      this.name = name;
    }

    public Options op(String opName, Op op) {
      if (opName == null) throw new IllegalArgumentException("SerdiffWorker: an op's name is null");
      if (op == null) throw new IllegalArgumentException("SerdiffWorker: op " + opName + " is null");
      ops.put(opName, op);
      return this;
    }

    public Options peak(String text) {
      peak = text;
      return this;
    }

    /**
     * The library's name and the version found at run time ("org.bson 3.6.3"): the hello's
     * "library", which serdiff prints beside the worker's calls.
     */
    public Options library(String nameAndVersion) {
      library = nameAndVersion;
      return this;
    }

    /** A reason: the worker cannot run; every request is declined with it. */
    public Options declined(String reason) {
      declined = reason;
      return this;
    }

    /** The longest frame read or written; 256 MiB unless set lower (in tests). */
    public Options frameLimit(int limit) {
      if (limit < 1 || limit > MAX_FRAME) {
        throw new IllegalArgumentException("SerdiffWorker: frameLimit must be in 1.." + MAX_FRAME);
      }
      frameLimit = limit;
      return this;
    }

    /** Run each op's run once unmeasured before the measured run. */
    public Options rehearse(boolean on) {
      rehearse = on;
      return this;
    }
  }

  static final class ProtocolError extends Exception {
    ProtocolError(String message) {
      super(message);
    }
  }

  /** "Class: message", or the class alone when the message is empty. */
  public static String errorText(Throwable t) {
    String cls = t.getClass().getSimpleName();
    if (cls.isEmpty()) cls = t.getClass().getName();
    String m = messageOf(t);
    return m.isEmpty() ? cls : cls + ": " + m;
  }

  /** t's message: "" when it has none, or when getMessage() itself throws. */
  static String messageOf(Throwable t) {
    try {
      String m = t.getMessage();
      return m == null ? "" : m;
    } catch (RuntimeException | StackOverflowError e) {
      return "";
    }
  }

  // ---- answers ----------------------------------------------------------------------------------

  private static JsonObject declinedAnswer(long id, String message) {
    JsonObject a = new JsonObject();
    a.addProperty("id", id);
    a.addProperty("ok", false);
    a.addProperty("error", "declined");
    a.addProperty("message", message);
    return a;
  }

  private static JsonObject rejectedAnswer(long id, String message, long offset, Long peak) {
    JsonObject a = new JsonObject();
    a.addProperty("id", id);
    a.addProperty("ok", false);
    a.addProperty("error", "rejected");
    a.addProperty("message", message);
    if (offset >= 0) a.addProperty("offset", offset);
    if (peak != null) a.addProperty("peak", peak);
    return a;
  }

  /** A Rejected or DeclinedOp as its answer; null for anything else. */
  private static JsonObject classify(long id, Throwable t, Long peak) {
    if (t instanceof DeclinedOp) return declinedAnswer(id, messageOf(t));
    if (t instanceof Rejected) return rejectedAnswer(id, messageOf(t), ((Rejected) t).offset, peak);
    return null;
  }

  private static final class WorkerBug extends Exception {
    WorkerBug(String message) {
      super(message);
    }
  }

  private static final class Server {
    final Options o;
    final OutputStream out;
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    Server(Options o, OutputStream out) {
      this.o = o;
      this.out = out;
    }

    long allocated() {
      return threads.getCurrentThreadAllocatedBytes();
    }

    // The integer t holds when it is one in lo..hi, else 0 ("time": lo 1; "batch": lo 2).
    static int intIn(JsonElement t, int lo, int hi) {
      if (t == null || !t.isJsonPrimitive() || !t.getAsJsonPrimitive().isNumber()) return 0;
      String s = t.getAsString();
      if (!s.matches("-?[0-9]+") || s.length() > 8) return 0;
      int n = Integer.parseInt(s);
      return n >= lo && n <= hi ? n : 0;
    }

    JsonObject answer(Request req, JsonElement[] timing, int rawLen) throws WorkerBug {
      long id = req.id;
      Op op = o.ops.get(req.op);
      if (op == null) {
        return declinedAnswer(id, o.name + " does not answer op \"" + req.op + "\"");
      }
      Object arg = req;
      if (op.prepare != null) {
        try {
          arg = op.prepare.apply(req);
        } catch (Throwable t) { // the input has no form the library takes
          JsonObject c = classify(id, t, null);
          return c != null ? c : declinedAnswer(id, "input not taken: " + errorText(t));
        }
      }
      // "peak": false: serdiff does not need this call's peak, so the call runs once, unmeasured,
      // and the answer carries none (docs/workers.md).
      JsonElement peakAsked = timing[2];
      boolean measure =
          !(peakAsked != null
              && peakAsked.isJsonPrimitive()
              && peakAsked.getAsJsonPrimitive().isBoolean()
              && !peakAsked.getAsBoolean());
      if (measure && o.rehearse && rawLen <= REHEARSE_MAX_REQUEST) {
        try {
          op.run.apply(arg); // result or exception dropped
        } catch (Throwable t) {
          // dropped
        }
      }
      Object result;
      long before = allocated();
      try {
        result = op.run.apply(arg);
      } catch (Throwable t) { // the library refused the input
        long peak = Math.max(0, allocated() - before);
        // An allocation over the heap's capacity fails before it is counted: the call asked for
        // more than the whole heap (Runtime.maxMemory(), a little under -Xmx: the serial
        // collector leaves one survivor space out), the least its peak would have been.
        if (t instanceof OutOfMemoryError) peak = Math.max(peak, Runtime.getRuntime().maxMemory());
        Long shown = measure ? peak : null;
        JsonObject c = classify(id, t, shown);
        return c != null ? c : rejectedAnswer(id, errorText(t), -1, shown);
      }
      long peak = Math.max(0, allocated() - before);
      Object res = result;
      if (op.finish != null) {
        try {
          res = op.finish.apply(result);
        } catch (Throwable t) { // an accepted result the worker cannot present
          JsonObject c = classify(id, t, measure ? peak : null);
          return c != null ? c : declinedAnswer(id, "result not presentable: " + errorText(t));
        }
      }
      if (!(res instanceof Result)) {
        throw new WorkerBug(
            "op \""
                + req.op
                + "\" (id "
                + id
                + ") returned "
                + (res == null ? "null" : "a " + res.getClass().getName())
                + " from "
                + (op.finish != null ? "finish" : "run")
                + ", not SerdiffWorker.Result.hex(bytes) or SerdiffWorker.Result.value(v)");
      }
      Result r = (Result) res;
      JsonObject a = new JsonObject();
      a.addProperty("id", id);
      a.addProperty("ok", true);
      try {
        if (r.isValue) {
          a.add("value", JsonText.toJson(r.value));
        } else {
          // The answer's length is known before its hex is built: over the frame limit it is
          // declined without making a text that may not fit in the heap.
          JsonObject probe = a.deepCopy();
          probe.addProperty("hex", "");
          if (measure) probe.addProperty("peak", peak);
          long n = JsonText.write(probe).getBytes(StandardCharsets.UTF_8).length
              + 2L * r.bytes.length;
          if (n > o.frameLimit) return overLimit(id, n);
          a.addProperty("hex", hex(r.bytes));
        }
      } catch (IllegalArgumentException | IOException | OutOfMemoryError | StackOverflowError e) {
        return declinedAnswer(id, "result not presentable: " + errorText(e));
      }
      if (measure) a.addProperty("peak", peak);
      int n = intIn(timing[0], 1, MAX_TIMED);
      if (n > 0) {
        // "batch": B (2..MAX_BATCH) makes each timing one of B calls in a row.
        int batch = Math.max(1, intIn(timing[1], 2, MAX_BATCH));
        JsonArray ns = new JsonArray();
        for (int i = 0; i < n; i++) {
          long t0 = System.nanoTime();
          for (int b = 0; b < batch; b++) {
            try {
              op.run.apply(arg);
            } catch (Throwable t) {
              // timed only
            }
          }
          ns.add(Math.max(0, System.nanoTime() - t0));
        }
        a.add("ns", ns);
        if (batch > 1) a.addProperty("batch", batch);
      }
      return a;
    }

    byte[] body(JsonObject a) {
      long id = a.get("id").getAsLong();
      if (a.has("message")) {
        a.addProperty("message", JsonText.wellFormed(a.get("message").getAsString()));
      }
      byte[] b;
      try {
        b = JsonText.write(a).getBytes(StandardCharsets.UTF_8);
      } catch (IOException | RuntimeException | OutOfMemoryError | StackOverflowError e) {
        a = null; // what could not be written may be what fills the heap
        b = writeQuietly(declinedAnswer(id, "result not presentable: " + errorText(e)))
                .getBytes(StandardCharsets.UTF_8);
      }
      if (b.length > o.frameLimit) { // serdiff would take it for a protocol error
        b = writeQuietly(overLimit(id, b.length)).getBytes(StandardCharsets.UTF_8);
      }
      return b;
    }

    JsonObject overLimit(long id, long n) {
      return declinedAnswer(
          id, "the answer of " + n + " bytes is over the frame limit of " + o.frameLimit + " bytes");
    }

    void send(byte[] body) {
      byte[] frame = ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
      try {
        out.write(frame);
        out.flush();
      } catch (IOException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("Broken pipe")) System.exit(EXIT_EOF); // serdiff went away
        die(EXIT_WORKER_BUG, "cannot write its answers: " + m);
      }
    }

    void die(int status, String message) {
      System.err.println(o.name + " worker: " + message);
      System.err.flush();
      System.exit(status);
    }
  }

  private static String writeQuietly(JsonObject a) {
    try {
      return JsonText.write(a);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** Lower-case hex of b. */
  public static String hex(byte[] b) {
    char[] c = new char[b.length * 2];
    for (int i = 0; i < b.length; i++) {
      c[2 * i] = HEX[(b[i] >> 4) & 15];
      c[2 * i + 1] = HEX[b[i] & 15];
    }
    return new String(c);
  }

  /** The bytes of a hex string (either case); IllegalArgumentException when it is not hex. */
  public static byte[] unhex(String s) {
    if (s == null || s.length() % 2 != 0) {
      throw new IllegalArgumentException("not a string of an even number of hex digits");
    }
    byte[] b = new byte[s.length() / 2];
    for (int i = 0; i < b.length; i++) {
      int hi = Character.digit(s.charAt(2 * i), 16);
      int lo = Character.digit(s.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) throw new IllegalArgumentException("not a hex digit at " + 2 * i);
      b[i] = (byte) (hi << 4 | lo);
    }
    return b;
  }

  /** Checks one request frame: UTF-8 JSON, one object, id, op and input as the protocol says. */
  static Object[] parseRequest(byte[] body) throws ProtocolError {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body))
              .toString();
    } catch (CharacterCodingException e) {
      throw new ProtocolError("a frame that is not UTF-8");
    }
    if (text.startsWith("\uFEFF")) throw new ProtocolError("a frame that starts with a byte order mark");
    JsonElement e;
    try {
      e = JsonText.parse(text);
    } catch (IOException | RuntimeException | StackOverflowError x) {
      throw new ProtocolError("a frame that is not UTF-8 JSON: " + x.getMessage());
    }
    if (!e.isJsonObject()) throw new ProtocolError("a frame that is not one JSON object");
    JsonObject f = e.getAsJsonObject();
    JsonElement rawId = f.get("id");
    if (rawId == null) throw new ProtocolError("a request without \"id\"");
    long id;
    try {
      if (!rawId.isJsonPrimitive() || !rawId.getAsJsonPrimitive().isNumber()) {
        throw new NumberFormatException();
      }
      BigDecimal d = new BigDecimal(rawId.getAsString());
      if (d.signum() < 0 || d.compareTo(BigDecimal.valueOf(MAX_ID)) > 0) {
        throw new NumberFormatException();
      }
      id = d.longValueExact(); // 2.0 and 1e3 are integers too, as JavaScript reads them
    } catch (ArithmeticException | NumberFormatException x) {
      throw new ProtocolError("a request whose \"id\" is not an integer in 0..2^53-1");
    }
    JsonElement op = f.get("op");
    if (op == null) throw new ProtocolError("a request without \"op\"");
    if (!op.isJsonPrimitive() || !op.getAsJsonPrimitive().isString()) {
      throw new ProtocolError("a request whose \"op\" is not a string");
    }
    JsonElement input = f.get("input");
    if (input == null) throw new ProtocolError("a request without \"input\"");
    if (!input.isJsonObject()) throw new ProtocolError("a request whose \"input\" is not a JSON object");
    return new Object[] {
      new Request(id, op.getAsString(), input.getAsJsonObject(), text),
      new JsonElement[] {f.get("time"), f.get("batch"), f.get("peak")}
    };
  }

  private static void readFully(InputStream in, byte[] b, Server s, boolean length)
      throws IOException {
    int got = 0;
    while (got < b.length) {
      int n = in.read(b, got, b.length - got);
      if (n < 0) {
        if (length && got == 0) System.exit(EXIT_EOF); // stdin ended at a frame boundary
        if (length) s.die(EXIT_PROTOCOL, "protocol error: the stream ended inside a frame length");
        s.die(
            EXIT_PROTOCOL,
            "protocol error: the stream ended inside a frame (" + got + " of " + b.length + " bytes)");
      }
      got += n;
    }
  }

  /**
   * Answers requests on stdin until it ends, then exits the process (status 0 at a frame
   * boundary, 2 on a malformed frame or request, 4 on a bug in the worker). Never returns.
   */
  public static void serve(Options o) {
    // The requests are answered on a thread with a 1 GiB stack (reserved, touched only as deep
    // as a call goes): a library's recursive reader or writer on a document nested 1,000 levels,
    // and the JSON of a deep value, stay far from its end. The peak is measured on that thread.
    Thread t = new Thread(null, () -> serveHere(o), "serdiff-worker", 1L << 30);
    t.start();
    for (;;) {
      try {
        t.join();
        System.exit(EXIT_WORKER_BUG); // serveHere only ends the process, never returns
      } catch (InterruptedException e) {
        // keep waiting
      }
    }
  }

  private static void serveHere(Options o) {
    // Frames go to the process's own descriptor 1; System.out becomes stderr, so what the
    // worker's Java code prints cannot break a frame (a native library's printf still could).
    OutputStream frames = new FileOutputStream(FileDescriptor.out);
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
    Server s = new Server(o, frames);
    JsonObject hello = new JsonObject();
    hello.addProperty("serdiff_worker", PROTOCOL_VERSION);
    hello.addProperty("name", o.name);
    if (o.declined != null) {
      hello.addProperty("declined", o.declined);
    } else {
      JsonArray names = new JsonArray();
      for (String n : o.ops.keySet()) names.add(n);
      hello.add("ops", names);
      hello.addProperty("peak", o.peak);
      if (o.library != null) hello.addProperty("library", o.library);
    }
    s.send(writeQuietly(hello).getBytes(StandardCharsets.UTF_8));
    InputStream in = new BufferedInputStream(System.in, 1 << 16);
    byte[] head = new byte[4];
    try {
      for (; ; ) {
        readFully(in, head, s, true);
        long size = ByteBuffer.wrap(head).getInt() & 0xffffffffL;
        if (size > o.frameLimit) {
          s.die(
              EXIT_PROTOCOL,
              "protocol error: a frame of " + size + " bytes (limit " + o.frameLimit + ")");
        }
        Object[] parsed;
        int bodyLength = (int) size;
        try {
          byte[] body = new byte[bodyLength];
          readFully(in, body, s, false);
          parsed = parseRequest(body);
        } catch (ProtocolError e) {
          s.die(EXIT_PROTOCOL, "protocol error: " + e.getMessage());
          return;
        } catch (OutOfMemoryError e) {
          s.die(
              EXIT_WORKER_BUG,
              "a request of "
                  + size
                  + " bytes does not fit in the worker's heap (-Xmx, SERDIFF_JAVA_XMX for "
                  + "workers/java/run)");
          return;
        }
        Request req = (Request) parsed[0];
        JsonObject a;
        if (o.declined != null) {
          a = declinedAnswer(req.id, o.declined);
        } else {
          try {
            a = s.answer(req, (JsonElement[]) parsed[1], bodyLength);
          } catch (WorkerBug e) {
            s.die(EXIT_WORKER_BUG, "bug in the worker: " + e.getMessage());
            return;
          }
        }
        s.send(s.body(a));
      }
    } catch (IOException e) {
      s.die(EXIT_WORKER_BUG, "cannot read its requests: " + e.getMessage());
    }
  }

  /** A list of the arguments, for Result.value. */
  public static List<Object> list(Object... items) {
    List<Object> l = new ArrayList<>();
    for (Object x : items) l.add(x);
    return l;
  }
}
