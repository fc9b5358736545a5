// serdiff worker "java_bson": the MongoDB Java driver's BSON library (org.bson, 3.6.3, Debian 12's
// libmongodb-java: /usr/share/java/bson.jar) as a peer on BSON (docs/workers.md, docs/peers.md).
//
//   bson.encode      {"document": <canonical Extended JSON v2>} -> org.bson.json.JsonReader piped
//                    into a BsonBinaryWriter, read back by BsonDocumentCodec into a BsonDocument
//                    (outside the measurement); the measured call is BsonDocumentCodec.encode
//                    into a BsonBinaryWriter. Or {"bson": hex} -> BsonDocumentCodec.decode of the
//                    bytes, then the same encode.
//   bson.decode      {"bson": hex} -> BsonDocumentCodec.decode from a BsonBinaryReader over the
//                    bytes; accepted: hex of the document written again; an exception: rejected.
//   bson.array_keys  {"count": n} -> the key bytes ("0\0", "1\0", ...) BsonDocumentCodec writes
//                    for {a: a BsonArray of n BsonNull}.
//
// A BsonDocument is a map: it keeps one value per key. A document whose keys repeat at some
// level is declined for bson.encode (the library cannot hold it as given), not compared.
// Run by workers/java/run (oracles/java_bson/worker.json), which declines the whole worker when
// the JDK or bson.jar is missing.

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import org.bson.BsonArray;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonReader;
import org.bson.BsonType;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;
import org.bson.json.JsonReader;
import serdiff.worker.SerdiffWorker;
import serdiff.worker.SerdiffWorker.DeclinedOp;
import serdiff.worker.SerdiffWorker.Op;
import serdiff.worker.SerdiffWorker.Rejected;
import serdiff.worker.SerdiffWorker.Request;
import serdiff.worker.SerdiffWorker.Result;
import serdiff.worker.Upstream;

public final class JavaBson {
  static final EncoderContext ENCODE = EncoderContext.builder().build();

  // The reading bson.decode runs, which its upstream reproducer copies (preludeBetween).
  // upstream: begin decode
  static final BsonDocumentCodec CODEC = new BsonDocumentCodec();
  static final DecoderContext DECODE = DecoderContext.builder().build();

  /** One document by BsonDocumentCodec over a BsonBinaryReader; left[0]: the bytes after it. */
  static BsonDocument readDocument(byte[] b, int[] left) {
    BsonBinaryReader r = new BsonBinaryReader(ByteBuffer.wrap(b));
    BsonDocument doc = CODEC.decode(r, DECODE);
    left[0] = b.length - r.getBsonInput().getPosition();
    return doc;
  }
  // upstream: end decode

  static byte[] hexInput(Request req, String key) {
    try {
      return SerdiffWorker.unhex(req.string(key));
    } catch (IllegalArgumentException e) {
      throw new DeclinedOp("input \"" + key + "\" is not a hex string");
    }
  }

  /** The first key that repeats within one document (a code_w_scope's scope too), or null. */
  static String repeatedKey(BsonReader r) {
    r.readStartDocument();
    String found = repeatedKeyIn(r, true);
    r.readEndDocument();
    return found;
  }

  // In an array the reader reads no names (BsonArray keeps values only, so its keys cannot
  // repeat in what the library holds).
  static String repeatedKeyIn(BsonReader r, boolean document) {
    Set<String> seen = new HashSet<>();
    String found = null;
    while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
      if (document) {
        String name = r.readName();
        if (!seen.add(name) && found == null) found = name;
      }
      BsonType t = r.getCurrentBsonType();
      String inner = null;
      if (t == BsonType.DOCUMENT) {
        inner = repeatedKey(r);
      } else if (t == BsonType.ARRAY) {
        r.readStartArray();
        inner = repeatedKeyIn(r, false);
        r.readEndArray();
      } else if (t == BsonType.JAVASCRIPT_WITH_SCOPE) {
        r.readJavaScriptWithScope(); // the code; the scope document follows
        inner = repeatedKey(r);
      } else {
        r.skipValue();
      }
      if (found == null) found = inner;
    }
    return found;
  }

  static BsonDocument documentOf(byte[] bson) {
    String repeated = repeatedKey(new BsonBinaryReader(ByteBuffer.wrap(bson)));
    if (repeated != null) {
      throw new DeclinedOp(
          "the key \"" + repeated + "\" repeats in one document (a BsonDocument keeps one value "
              + "per key)");
    }
    return CODEC.decode(new BsonBinaryReader(ByteBuffer.wrap(bson)), DECODE);
  }

  /** The request's input.document, read by org.bson's JsonReader (key order and repeats kept). */
  static byte[] documentBytes(String requestText) {
    JsonReader r = new JsonReader(requestText);
    r.readStartDocument();
    while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
      String name = r.readName();
      if (!name.equals("input") || r.getCurrentBsonType() != BsonType.DOCUMENT) {
        r.skipValue();
        continue;
      }
      r.readStartDocument();
      while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
        if (!r.readName().equals("document")) {
          r.skipValue();
          continue;
        }
        if (r.getCurrentBsonType() != BsonType.DOCUMENT) {
          throw new DeclinedOp("input \"document\" is not a JSON object");
        }
        BasicOutputBuffer out = new BasicOutputBuffer();
        new BsonBinaryWriter(out).pipe(r);
        return out.toByteArray();
      }
      break;
    }
    throw new DeclinedOp("input has neither \"document\" nor \"bson\"");
  }

  static Object encodePrepare(Object arg) {
    Request req = (Request) arg;
    if (req.input.has("document")) {
      byte[] piped;
      try {
        piped = documentBytes(req.text);
      } catch (DeclinedOp e) {
        throw e;
      } catch (RuntimeException e) { // the library refused it: JsonReader or the writer
        throw new Rejected("org.bson.json.JsonReader: " + SerdiffWorker.errorText(e));
      }
      return documentOf(piped);
    }
    if (req.input.has("bson")) {
      byte[] b = hexInput(req, "bson");
      try {
        BsonDocument doc = documentOf(b);
        // A Java String holds UTF-16: BsonBinaryReader reads an ill-formed UTF-8 sequence as
        // U+FFFD (ef bf bd), so the document it holds is not the one given.
        if (replacements(encode(doc)) > replacements(b)) {
          throw new DeclinedOp(
              "a string, key or regex holds ill-formed UTF-8, which a Java String cannot hold "
                  + "(BsonBinaryReader reads it as U+FFFD)");
        }
        return doc;
      } catch (DeclinedOp e) {
        throw e;
      } catch (RuntimeException e) {
        throw new DeclinedOp(
            "BsonDocumentCodec cannot read the document to write it again: "
                + SerdiffWorker.errorText(e));
      }
    }
    throw new DeclinedOp("input has neither \"document\" nor \"bson\"");
  }

  /** How many times U+FFFD's bytes ef bf bd occur in b. */
  static int replacements(byte[] b) {
    int n = 0;
    for (int i = 0; i + 2 < b.length; i++) {
      if (b[i] == (byte) 0xef && b[i + 1] == (byte) 0xbf && b[i + 2] == (byte) 0xbd) n++;
    }
    return n;
  }

  static byte[] encode(BsonDocument doc) {
    BasicOutputBuffer out = new BasicOutputBuffer();
    CODEC.encode(new BsonBinaryWriter(out), doc, ENCODE);
    return out.toByteArray();
  }

  static Object decodeRun(Object arg) {
    int[] left = new int[1];
    BsonDocument doc = readDocument((byte[]) arg, left);
    if (left[0] != 0) {
      throw new Rejected(left[0] + " bytes after the document's end (BsonBinaryReader reads one "
          + "document and stops)");
    }
    return doc;
  }

  static Object decodeFinish(Object doc) {
    try {
      return Result.hex(encode((BsonDocument) doc));
    } catch (RuntimeException e) {
      java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
      m.put("accepted", true);
      m.put("reencode_error", SerdiffWorker.errorText(e));
      return Result.value(m);
    }
  }

  static Object arrayKeysPrepare(Object arg) {
    Request req = (Request) arg;
    long n;
    try {
      n = req.input.get("count").getAsBigDecimal().longValueExact();
    } catch (RuntimeException e) {
      n = -1;
    }
    if (n < 0 || n > Integer.MAX_VALUE) {
      throw new DeclinedOp("input \"count\" is not an integer in 0..2^31-1");
    }
    return (int) n;
  }

  static Object arrayKeysRun(Object arg) {
    int n = (Integer) arg;
    BsonArray a = new BsonArray();
    for (int i = 0; i < n; i++) a.add(BsonNull.VALUE);
    return encode(new BsonDocument("a", a));
  }

  static Object arrayKeysFinish(Object r) {
    byte[] doc = (byte[]) r;
    java.io.ByteArrayOutputStream keys = new java.io.ByteArrayOutputStream(doc.length);
    for (int i = 11; i < doc.length && doc[i] == 0x0a; ) {
      i++;
      while (i < doc.length && doc[i] != 0) keys.write(doc[i++]);
      keys.write(0);
      i++;
    }
    return Result.hex(keys.toByteArray());
  }

  /** "org.bson" and the version in the name of the jar it was loaded from (bson-3.6.3.jar). */
  static String library() {
    try {
      java.nio.file.Path jar = java.nio.file.Paths.get(BsonDocument.class.getProtectionDomain()
          .getCodeSource().getLocation().toURI()).toRealPath();
      String file = jar.getFileName().toString();
      return file.matches("bson-[0-9][^/]*\\.jar")
          ? "org.bson " + file.replaceAll("^bson-|\\.jar$", "")
          : "org.bson from " + jar;
    } catch (Exception e) {
      return "org.bson";
    }
  }

  /** The reproducers `serdiff repro --upstream java_bson` writes (bson.decode's only). */
  static Upstream upstream() {
    String dir = System.getenv().getOrDefault("SERDIFF_JAVA_SOURCE_DIR", ".");
    return new Upstream(library())
        .jar("/usr/share/java/bson.jar")
        .importing("java.nio.ByteBuffer")
        .importing("org.bson.BsonBinaryReader")
        .importing("org.bson.BsonDocument")
        .importing("org.bson.codecs.BsonDocumentCodec")
        .importing("org.bson.codecs.DecoderContext")
        .preludeBetween(dir + "/JavaBson.java", "decode")
        .call("bson.decode", String.join("\n",
            "int[] left = new int[1];",
            "readDocument(unhex(input.get(\"bson\").getAsString()), left);",
            "if (left[0] != 0) {",
            "  throw new IllegalStateException(left[0] + \" bytes after the document's end\");",
            "}",
            "return new byte[0];  // any accepted answer is the spec's: the expectation is {}"));
  }

  public static void main(String[] args) {
    SerdiffWorker.serve(upstream().addTo(new SerdiffWorker.Options("java_bson"))
            .library(library())
            .op("bson.encode", new Op(JavaBson::encodePrepare, d -> Result.hex(encode((BsonDocument) d)), null))
            .op("bson.decode", new Op(r -> hexInput((Request) r, "bson"), JavaBson::decodeRun,
                JavaBson::decodeFinish))
            .op("bson.array_keys", new Op(JavaBson::arrayKeysPrepare, JavaBson::arrayKeysRun,
                JavaBson::arrayKeysFinish))
            .rehearse(true));
  }
}
