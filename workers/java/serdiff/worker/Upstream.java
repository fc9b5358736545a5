// serdiff repro --upstream for Java workers: the program a worker writes for a bug report
// (docs/workers.md, "Upstream reproducers").
package serdiff.worker;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serdiff.worker.SerdiffWorker.DeclinedOp;
import serdiff.worker.SerdiffWorker.Op;
import serdiff.worker.SerdiffWorker.Request;
import serdiff.worker.SerdiffWorker.Result;

/**
 * What a Java worker gives for `serdiff repro --upstream`: a self-contained Java source file
 * (run as it is by `java -cp JARS FILE`, Java 11 or later) that calls the library directly on the
 * request's input, prints what it does and what serdiff's reference (the spec) gives, and exits 1
 * while they differ, 0 once they agree. A missing library fails java's own compilation of the
 * file (exit 1, with the compiler's message).
 *
 * <p>Both reserved ops take the same request (docs/workers.md): "serdiff.upstream" for a difference
 * in the answers, "serdiff.upstream_heap" for an answer the spec's but a peak heap over serdiff's
 * bound ("expect" then holds "peak_bound", bytes); the program then also measures the bytes the call
 * allocates on the Java heap (ThreadMXBean, as the worker does) and fails above the bound.
 */
public final class Upstream {
  /** The op for an answer difference. */
  public static final String OP = "serdiff.upstream";
  /** The op for a heap finding (the answers agree, the peak is over the bound). */
  public static final String HEAP_OP = "serdiff.upstream_heap";

  final String library;
  final List<String> imports = new ArrayList<>();
  final List<String> classPath = new ArrayList<>();
  String prelude = "";
  final Map<String, String> calls = new LinkedHashMap<>();

  /** library: its name and version, as the program prints it. */
  public Upstream(String library) {
    this.library = library;
  }

  /** A class the program imports (e.g. "org.bson.BsonBinaryReader"). */
  public Upstream importing(String name) {
    imports.add(name);
    return this;
  }

  /** A jar the program needs on its class path (Gson's is added, for the input). */
  public Upstream jar(String path) {
    classPath.add(path);
    return this;
  }

  /** Class members (static fields and methods) the calls use. */
  public Upstream prelude(String source) {
    prelude = source;
    return this;
  }

  /**
   * The prelude is the lines of `file` between "// upstream: begin NAME" and "// upstream: end
   * NAME" (the worker's own code, so that the program runs the library as the worker does), read
   * when a program is written; a missing file or section declines the request.
   */
  public Upstream preludeBetween(String file, String name) {
    preludeFile = file;
    preludeSection = name;
    return this;
  }

  String preludeFile;
  String preludeSection;

  /**
   * The body of {@code static byte[] call(JsonObject input) throws Exception} for one op: it runs
   * the library on the op's input and returns the answer's bytes (compared with an expected "hex";
   * a decoder whose every accepted answer is right may return its re-encoding), or throws where
   * the library rejects the input. An op without a call is declined.
   */
  public Upstream call(String op, String body) {
    calls.put(op, body);
    return this;
  }

  /** Registers both reserved ops on a worker's options. */
  public SerdiffWorker.Options addTo(SerdiffWorker.Options options) {
    Op op = Op.of(r -> program((Request) r));
    return options.op(OP, op).op(HEAP_OP, op);
  }

  /**
   * The lines of `file` between "// upstream: begin NAME" and "// upstream: end NAME" (each marker
   * alone on its line, leading spaces allowed). A missing file or section: DeclinedOp.
   */
  public static String sourceBetween(String file, String name) {
    List<String> lines;
    try {
      lines = java.nio.file.Files.readAllLines(new File(file).toPath());
    } catch (java.io.IOException e) {
      throw new DeclinedOp("cannot read " + file + " for its upstream section: " + e);
    }
    int begin = -1;
    int end = -1;
    for (int i = 0; i < lines.size(); i++) {
      String t = lines.get(i).strip();
      if (begin < 0 && t.equals("// upstream: begin " + name)) begin = i;
      if (begin >= 0 && t.equals("// upstream: end " + name)) {
        end = i;
        break;
      }
    }
    if (begin < 0 || end < 0) {
      throw new DeclinedOp(file + " has no section \"// upstream: begin " + name + "\"");
    }
    StringBuilder b = new StringBuilder();
    for (String line : lines.subList(begin + 1, end)) {
      b.append(line.startsWith("  ") ? line.substring(2) : line).append('\n');
    }
    return b.toString();
  }

  Result program(Request req) throws java.io.IOException {
    JsonObject expect = req.input.getAsJsonObject("expect");
    String op = req.string("op");
    String body = op == null ? null : calls.get(op);
    if (body == null) throw new DeclinedOp("no reproducer for op " + op + " in " + library);
    JsonObject answer = expect.getAsJsonObject("answer");
    boolean accepted = "accepted".equals(expect.get("outcome").getAsString());
    if (accepted && answer != null) {
      for (String k : answer.keySet()) {
        if (!k.equals("hex")) {
          throw new DeclinedOp("the Java program compares \"hex\" answers only, not \"" + k + "\"");
        }
      }
    }
    String members = preludeFile != null ? sourceBetween(preludeFile, preludeSection) : prelude;
    boolean heap = HEAP_OP.equals(req.op);
    if (heap != expect.has("peak_bound")) {
      throw new DeclinedOp(req.op + " with" + (heap ? "out" : "") + " expect.peak_bound");
    }
    String gson = new File(JsonParser.class.getProtectionDomain().getCodeSource().getLocation()
        .getPath()).getPath();
    List<String> cp = new ArrayList<>(classPath);
    cp.add(gson);
    String classPathText = String.join(File.pathSeparator, cp);
    String wants = accepted ? "accepted" : "rejected, " + expect.get("message").getAsString();
    StringBuilder b = new StringBuilder();
    b.append("// ").append(oneLine(library)).append(" on ").append(oneLine(req.string("target")))
        .append(": a reproducer written by serdiff (serdiff repro --upstream).\n")
        .append("//\n// It calls the library directly, without serdiff, on this input:\n//   ")
        .append(oneLine(req.string("shown"))).append("\n// What the spec requires (")
        .append(oneLine(req.string("spec"))).append("): ").append(oneLine(wants)).append("\n");
    if (heap) {
      b.append("// and the call allocating at most ").append(expect.get("peak_bound").getAsLong())
          .append(" bytes on the Java heap (serdiff's heap bound for this\n// input).\n");
    }
    b.append("// Run: java -cp ").append(classPathText).append(" <this file>\n")
        .append("// Exit status: 1 while the library answers otherwise")
        .append(heap ? " or allocates more than that" : "")
        .append(",\n// 0 once it agrees; a library that is not on the class path fails java's ")
        .append("compilation\n// of this file (exit 1).\n\n");
    b.append("import com.google.gson.JsonObject;\nimport com.google.gson.JsonParser;\n")
        .append("import java.lang.management.ManagementFactory;\n");
    for (String i : imports) b.append("import ").append(i).append(";\n");
    b.append("\npublic class SerdiffUpstream {\n")
        .append("  static final String LIBRARY = ").append(literal(library)).append(";\n")
        .append("  static final String SPEC = ").append(literal(req.string("spec"))).append(";\n")
        .append("  static final String INPUT = ").append(literal(JsonText.write(input(req))))
        .append(";\n")
        .append("  static final String EXPECT = ").append(literal(JsonText.write(expect)))
        .append(";\n\n")
        .append(indent(members.strip())).append("\n\n")
        .append("  static byte[] call(JsonObject input) throws Exception {\n")
        .append(indent(indent(body.strip()))).append("\n  }\n")
        .append(JUDGE);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ext", "java");
    List<Object> run = new ArrayList<>();
    run.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    run.add("-cp");
    run.add(classPathText);
    run.add("{file}");
    out.put("run", run);
    out.put("program", b.toString());
    return Result.value(out);
  }

  private static JsonElement input(Request req) {
    JsonElement e = req.input.get("input");
    if (e == null || !e.isJsonObject()) throw new DeclinedOp("the request has no input object");
    return e;
  }

  /**
   * s for a // comment: in printable ASCII on one line (other characters as the text \\uXXXX),
   * and every backslash doubled, since javac reads a unicode escape (backslash, u, four hex
   * digits) before comments, so that one for a line break in the input's text would end the
   * comment and make the rest code; a doubled backslash starts no escape.
   */
  private static String oneLine(String s) {
    if (s == null) return "";
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        b.append("\\\\");
      } else if (c >= 0x20 && c < 0x7f) {
        b.append(c);
      } else {
        b.append(String.format("\\\\u%04x", (int) c));
      }
    }
    return b.toString();
  }

  private static String indent(String s) {
    if (s.isEmpty()) return s;
    return "  " + s.replace("\n", "\n  ").replace("\n  \n", "\n\n");
  }

  /**
   * A Java string literal of s, in ASCII: a control character as an octal escape, not a unicode
   * one (javac turns unicode escapes into characters before it reads literals, so \\u000a would
   * end the line inside the literal), the characters from 0x7f on as unicode escapes.
   */
  static String literal(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c >= 0x20 && c < 0x7f) {
        b.append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\%03o", (int) c));
      } else {
        b.append(String.format("\\u%04x", (int) c));
      }
    }
    return b.append('"').toString();
  }

  private static final String JUDGE = String.join("\n",
      "",
      "  public static void main(String[] args) {",
      "    JsonObject input = JsonParser.parseString(INPUT).getAsJsonObject();",
      "    JsonObject expect = JsonParser.parseString(EXPECT).getAsJsonObject();",
      "    com.sun.management.ThreadMXBean mx =",
      "        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();",
      "    byte[] got = null;",
      "    Throwable error = null;",
      "    long before = mx.getCurrentThreadAllocatedBytes();",
      "    try {",
      "      got = call(input);",
      "    } catch (Exception | OutOfMemoryError e) {",
      "      error = e;",
      "    }",
      "    long allocated = mx.getCurrentThreadAllocatedBytes() - before;",
      "    if (error != null) {",
      "      System.out.println(LIBRARY + \" rejects it: \" + error);",
      "    } else {",
      "      System.out.println(LIBRARY + \" accepts it: \" + hex(got));",
      "    }",
      "    boolean agrees;",
      "    if (expect.get(\"outcome\").getAsString().equals(\"rejected\")) {",
      "      System.out.println(\"the spec (\" + SPEC + \"): rejected, \"",
      "          + expect.get(\"message\").getAsString());",
      "      agrees = error != null;",
      "    } else {",
      "      JsonObject answer = expect.getAsJsonObject(\"answer\");",
      "      System.out.println(\"the spec (\" + SPEC + \"): accepted: \" + answer);",
      "      agrees = error == null",
      "          && (!answer.has(\"hex\") || answer.get(\"hex\").getAsString().equals(hex(got)));",
      "    }",
      "    if (expect.has(\"peak_bound\")) {",
      "      long bound = expect.get(\"peak_bound\").getAsLong();",
      "      boolean oom = error instanceof OutOfMemoryError;",
      "      System.out.println(\"the call allocated \" + (oom",
      "          ? \"more than the Java heap holds (OutOfMemoryError)\"",
      "          : allocated + \" bytes on the Java heap\") + \"; the spec's answer needs at most \"",
      "          + bound + \" (serdiff's heap bound for this input)\");",
      "      agrees = agrees && !oom && allocated <= bound;",
      "    }",
      "    System.out.println(agrees ? \"agrees with the spec\" : \"DIFFERS from the spec\");",
      "    System.exit(agrees ? 0 : 1);",
      "  }",
      "",
      "  static byte[] unhex(String s) {",
      "    byte[] b = new byte[s.length() / 2];",
      "    for (int i = 0; i < b.length; i++) {",
      "      b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);",
      "    }",
      "    return b;",
      "  }",
      "",
      "  static String hex(byte[] b) {",
      "    StringBuilder s = new StringBuilder();",
      "    for (byte x : b) s.append(String.format(\"%02x\", x & 0xff));",
      "    return s.toString();",
      "  }",
      "}",
      "");
}
