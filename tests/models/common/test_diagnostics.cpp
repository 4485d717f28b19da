#include "models/common/diagnostics.hpp"

#include <catch2/catch.hpp>

using namespace aisim::models;

TEST_CASE("edit distance and suggestions", "[diagnostics]") {
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(closest_match("nic_sped", {"nics", "nic_speed", "count"}) == "nic_speed");
  CHECK(closest_match("zzzzzz", {"nics", "nic_speed"}).empty());
  CHECK(closest_match("H100", {"B200", "H100-SXM", "H200-SXM"}) == "H100-SXM"); // a prefix beats a near miss
  CHECK(closest_match("POLICIES", {"policies", "costs"}) == "policies");
  CHECK(quoted_list({"a", "b", "c"}) == "\"a\", \"b\" or \"c\"");
}

TEST_CASE("diagnostics print errors before warnings, each with file and pointer", "[diagnostics]") {
  Diagnostics d("s.json");
  d.warn("/a", "careful");
  d.error("/b/0", "wrong");
  CHECK(d.has_errors());
  CHECK(d.format(true) == "s.json:/b/0: wrong\ns.json:/a: warning: careful\n");
  CHECK(d.format(false) == "s.json:/b/0: wrong\n");
}
