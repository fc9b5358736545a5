// DecodedMutation::ToMutation (decoded.h): the flat records back into model.h's tree.
#include "serdiff/mutation/decoded.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace serdiff::mutation {
namespace {

Row RowAt(const DecodedMutation& d, size_t i) {
  const DecodedUnfiltered& r = d.unfiltereds[i];
  Row row;
  for (size_t k = r.first_component; k < d.ComponentsEnd(i); ++k)
    row.clustering.push_back(d.ComponentAt(k));
  row.liveness = r.liveness();
  row.deletion = r.deletion();
  row.shadowable = r.shadowable;
  size_t cell = r.first_cell;
  const size_t cells_end = d.CellsEnd(i);
  size_t complex = r.first_complex;
  const size_t complexes_end = d.ComplexesEnd(i);
  while (cell < cells_end || complex < complexes_end) {
    ColumnData cd;
    const bool next_is_complex =
        complex < complexes_end &&
        (cell == cells_end || d.complexes[complex].column <= d.cells[cell].column);
    cd.column = next_is_complex ? d.complexes[complex].column : d.cells[cell].column;
    if (next_is_complex) {
      cd.complex_deletion = {d.complexes[complex].deletion_at, d.complexes[complex].deletion_ldt};
      ++complex;
    }
    // A simple column: its one cell; a complex column: every cell of its column.
    while (cell < cells_end && d.cells[cell].column == cd.column) {
      const DecodedCell& c = d.cells[cell];
      cd.cells.push_back(Cell{c.kind, c.timestamp, c.local_deletion_time, c.ttl,
                              std::string(d.Bytes(c.path)), std::string(d.Bytes(c.value))});
      ++cell;
      if (!next_is_complex) break;
    }
    row.columns.push_back(std::move(cd));
  }
  return row;
}

}  // namespace

Mutation DecodedMutation::ToMutation() const {
  Mutation m;
  m.version = version;
  m.allow_out_of_range = allow_out_of_range;
  for (const DecodedUpdate& du : updates) {
    PartitionUpdate u;
    const TableDef& t = Table(du);
    u.table_id = t.id;
    u.epoch = du.epoch;
    u.key = std::string(Bytes(du.key));
    u.stats = du.stats;
    u.clustering_widths = t.clustering_widths;
    for (uint32_t k = 0; k < du.static_column_count; ++k)
      u.static_columns.push_back(HeaderColumn(du, true, k));
    for (uint32_t k = 0; k < du.regular_column_count; ++k)
      u.regular_columns.push_back(HeaderColumn(du, false, k));
    u.partition_deletion = du.partition_deletion;
    u.row_estimate = du.row_estimate;
    size_t i = du.first_unfiltered;
    if (du.has_static) u.static_row = RowAt(*this, i++);
    for (; i < du.unfiltered_end; ++i) {
      Unfiltered un;
      const DecodedUnfiltered& r = unfiltereds[i];
      if (r.is_marker) {
        un.is_marker = true;
        un.marker.kind = r.kind;
        for (size_t k = r.first_component; k < ComponentsEnd(i); ++k)
          un.marker.bound.push_back(ComponentAt(k));
        un.marker.deletion = r.deletion();
        un.marker.start_deletion = r.start_deletion();
      } else {
        un.row = RowAt(*this, i);
      }
      u.unfiltereds.push_back(std::move(un));
    }
    m.updates.push_back(std::move(u));
  }
  return m;
}

}  // namespace serdiff::mutation
