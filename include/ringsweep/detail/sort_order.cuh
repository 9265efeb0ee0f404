// sort_order and sort_options: what a sort orders by, its direction and its bit window. Public
// (sort_options.cuh, the header users include, gives them); defined here, below the public
// headers, so that the internals that resolve a sort's window (detail/sort_window.cuh) include no
// public header.
#pragma once

#include "config.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// Direction of a sort. Both directions are stable: equal keys keep their input order.
enum class sort_order { ascending, descending };

/// What to sort by. `begin_bit`/`end_bit` select the bit window `[begin_bit, end_bit)` of the
/// key's order-preserving image (see key_traits; descending complements the image first);
/// `end_bit = -1` means the key's width (any other negative value is invalid).
///
///     ringsweep::sort_options opts;
///     opts.order = ringsweep::sort_order::descending;
///     opts.end_bit = 16;                        // sort by the low 16 bits of the image
struct sort_options {
  sort_order order = sort_order::ascending;
  int begin_bit = 0;
  int end_bit = -1;
};

RINGSWEEP_NAMESPACE_END
