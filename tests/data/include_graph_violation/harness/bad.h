// The harness including a family header: refused.
#include "serdiff/cql/value.h"
