// SPDX-License-Identifier: Apache-2.0
// Counting line breaks sixteen bytes at a time: the readers count every line of a dump (for
// marks, and for moving a part's lines into place), and a byte loop over gigabytes takes
// seconds of CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kpreempt::load {

inline std::size_t count_line_breaks(const char* p, const char* end) {
  std::size_t n = 0;
#if defined(__SSE2__)
  const __m128i breaks = _mm_set1_epi8('\n');
  while (end - p >= 16) {
    // Up to 255 blocks are summed per byte lane (a match subtracts -1), then the lanes added up.
    __m128i lanes = _mm_setzero_si128();
    const std::size_t blocks = static_cast<std::size_t>(end - p) / 16;
    const std::size_t run = blocks < 255 ? blocks : 255;
    for (std::size_t i = 0; i < run; ++i, p += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(bytes, breaks));
    }
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
    n += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
         static_cast<std::size_t>(_mm_extract_epi16(sums, 4));
  }
#endif
  for (; p < end; ++p) {
    n += *p == '\n' ? 1 : 0;
  }
  return n;
}

}  // namespace kpreempt::load
