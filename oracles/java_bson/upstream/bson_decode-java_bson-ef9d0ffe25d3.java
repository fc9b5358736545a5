// org.bson 3.6.3 on bson_decode: a reproducer written by serdiff (serdiff repro --upstream).
//
// It calls the library directly, without serdiff, on this input:
//   0d 00 00 00 05 61 00 00 00 00 02 00 00
// What the spec requires (BSON 1.1, bsonspec.org/spec.html): rejected, offset 7: binary too long
// and the call allocating at most 37696 bytes on the Java heap (serdiff's heap bound for this
// input).
// Run: java -cp /usr/share/java/bson.jar:/usr/share/java/gson.jar <this file>
// Exit status: 1 while the library answers otherwise or allocates more than that,
// 0 once it agrees; a library that is not on the class path fails java's compilation
// of this file (exit 1).

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;

public class SerdiffUpstream {
  static final String LIBRARY = "org.bson 3.6.3";
  static final String SPEC = "BSON 1.1, bsonspec.org/spec.html";
  static final String INPUT = "{\"bson\":\"0d000000056100000000020000\"}";
  static final String EXPECT = "{\"outcome\":\"rejected\",\"offset\":7,\"message\":\"offset 7: binary too long\",\"peak_bound\":37696}";

  static final BsonDocumentCodec CODEC = new BsonDocumentCodec();
  static final DecoderContext DECODE = DecoderContext.builder().build();

  /** One document by BsonDocumentCodec over a BsonBinaryReader; left[0]: the bytes after it. */
  static BsonDocument readDocument(byte[] b, int[] left) {
    BsonBinaryReader r = new BsonBinaryReader(ByteBuffer.wrap(b));
    BsonDocument doc = CODEC.decode(r, DECODE);
    left[0] = b.length - r.getBsonInput().getPosition();
    return doc;
  }

  static byte[] call(JsonObject input) throws Exception {
    int[] left = new int[1];
    readDocument(unhex(input.get("bson").getAsString()), left);
    if (left[0] != 0) {
      throw new IllegalStateException(left[0] + " bytes after the document's end");
    }
    return new byte[0];  // any accepted answer is the spec's: the expectation is {}
  }

  public static void main(String[] args) {
    JsonObject input = JsonParser.parseString(INPUT).getAsJsonObject();
    JsonObject expect = JsonParser.parseString(EXPECT).getAsJsonObject();
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    byte[] got = null;
    Throwable error = null;
    long before = mx.getCurrentThreadAllocatedBytes();
    try {
      got = call(input);
    } catch (Exception | OutOfMemoryError e) {
      error = e;
    }
    long allocated = mx.getCurrentThreadAllocatedBytes() - before;
    if (error != null) {
      System.out.println(LIBRARY + " rejects it: " + error);
    } else {
      System.out.println(LIBRARY + " accepts it: " + hex(got));
    }
    boolean agrees;
    if (expect.get("outcome").getAsString().equals("rejected")) {
      System.out.println("the spec (" + SPEC + "): rejected, "
          + expect.get("message").getAsString());
      agrees = error != null;
    } else {
      JsonObject answer = expect.getAsJsonObject("answer");
      System.out.println("the spec (" + SPEC + "): accepted: " + answer);
      agrees = error == null
          && (!answer.has("hex") || answer.get("hex").getAsString().equals(hex(got)));
    }
    if (expect.has("peak_bound")) {
      long bound = expect.get("peak_bound").getAsLong();
      boolean oom = error instanceof OutOfMemoryError;
      System.out.println("the call allocated " + (oom
          ? "more than the Java heap holds (OutOfMemoryError)"
          : allocated + " bytes on the Java heap") + "; the spec's answer needs at most "
          + bound + " (serdiff's heap bound for this input)");
      agrees = agrees && !oom && allocated <= bound;
    }
    System.out.println(agrees ? "agrees with the spec" : "DIFFERS from the spec");
    System.exit(agrees ? 0 : 1);
  }

  static byte[] unhex(String s) {
    byte[] b = new byte[s.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    }
    return b;
  }

  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) s.append(String.format("%02x", x & 0xff));
    return s.toString();
  }
}
