#!/usr/bin/python3
"""pymongo's bson package (C extension bson._cbson) on bson_encode: a reproducer written by serdiff (serdiff repro --upstream).

It calls the library directly, without serdiff, on this input:
  {"b": binary subtype 255 010203}
What the spec requires (BSON 1.1, bsonspec.org/spec.html): accepted
Exit status: 1 while the library answers otherwise, 0 once it agrees, 2 when it is not
installed.
"""
import json
import sys

try:
    def _stand_in_pymongo_errors():
        try:
            import pymongo.errors  # noqa: F401
            return False
        except ImportError:
            pass
        package = types.ModuleType('pymongo')
        errors = types.ModuleType('pymongo.errors')

        class ConfigurationError(Exception):
            """Stand-in for pymongo.errors.ConfigurationError (python3-pymongo not installed)."""

        errors.ConfigurationError = ConfigurationError
        package.errors = errors
        package.__path__ = []
        sys.modules['pymongo'] = package
        sys.modules['pymongo.errors'] = errors
        return True

    import types
    _stand_in_pymongo_errors()
    import bson
    from bson.binary import UuidRepresentation
    from bson.codec_options import CodecOptions
    from bson.son import SON
    from bson import json_util
    JSON_OPTIONS = json_util.JSONOptions(json_mode=json_util.JSONMode.CANONICAL, document_class=SON,
                                         uuid_representation=UuidRepresentation.UNSPECIFIED,
                                         tz_aware=True)
    CODEC = CodecOptions(document_class=SON, tz_aware=False,
                         uuid_representation=UuidRepresentation.UNSPECIFIED,
                         unicode_decode_error_handler='strict')
except ImportError as e:  # exit 2: the library is not here, so nothing was reproduced
    print('the library is not installed for this python3: %s' % e)
    sys.exit(2)

LIBRARY = "pymongo's bson package (C extension bson._cbson)"
SPEC = 'BSON 1.1, bsonspec.org/spec.html'
INPUT = json.loads('{"document": {"b": {"$binary": {"base64": "AQID", "subType": "ff"}}}}')
EXPECT = json.loads('{"outcome": "accepted", "answer": {"hex": "1000000005620003000000ff01020300"}}')


def call(inp):
    """bson.encode of the document, given as canonical Extended JSON or as BSON bytes."""
    if 'document' in inp:
        doc = json_util.loads(json.dumps(inp['document']), json_options=JSON_OPTIONS)
    else:
        doc = bson.decode(bytes.fromhex(inp['bson']), codec_options=CODEC)
    return {'hex': bson.encode(doc, codec_options=CODEC).hex()}


def main():
    try:
        got = call(INPUT)
        outcome = 'accepted'
    except Exception as e:  # how a Python library says no
        outcome, got = 'rejected', '%s: %s' % (type(e).__name__, e)
    if outcome == 'accepted':
        print('%s accepts it: %s' % (LIBRARY, json.dumps(got, sort_keys=True)))
    else:
        print('%s rejects it: %s' % (LIBRARY, got))
    if EXPECT['outcome'] == 'rejected':
        print('the spec (%s): rejected, %s' % (SPEC, EXPECT['message']))
        agrees = outcome == 'rejected'
    else:
        answer = EXPECT['answer']
        print('the spec (%s): accepted%s' % (SPEC, ': ' + json.dumps(answer, sort_keys=True)
                                              if answer else ''))
        agrees = outcome == 'accepted' and all(got.get(k) == v for k, v in answer.items())
    print('agrees with the spec' if agrees else 'DIFFERS from the spec')
    sys.exit(0 if agrees else 1)


if __name__ == '__main__':
    main()
