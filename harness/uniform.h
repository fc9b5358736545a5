// A uniform draw of a generator, whatever the generation size.
//
// rc::gen::inRange(lo, hi) scales its range with RapidCheck's size: at size s it draws from
// [lo, lo + (hi - lo - 1) * s / 100], so at size 0 it always gives lo, and a choice among n
// kinds of input made with it reaches its last kind only at the largest sizes (a property's
// 100 runs go through sizes 0 to 99: the last of 12 kinds came up in 9 of 2,400 draws,
// tests/generators_test.cc). A count or a length may grow with the size, as RapidCheck intends;
// a choice among kinds, a calendar field, a position in the bytes or a value meant to be uniform
// over its range must not, and uses UniformIn. It shrinks towards lo, as inRange does.
#pragma once

#include <rapidcheck.h>

namespace serdiff::harness {

// Uniform over [lo, hi), at every size. Precondition: lo < hi.
template <typename T>
rc::Gen<T> UniformIn(T lo, T hi) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(lo, hi));
}

}  // namespace serdiff::harness
