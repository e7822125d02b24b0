#pragma once

// What an edit changed in a file, for `ainb regress` and `ainb diff`: which node of the edited
// file is which node of the original (edits.cpp), and the differences between the two files node
// by node (diff.cpp).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ainb/model.hpp"
#include "ainb/simulation/diff.hpp"
#include "ainb/simulation/regress.hpp"

namespace ainb::simulation {

// The pairing of two versions of one file (NodePairing).
NodePairing pair_nodes(const Model& original, const Model& edited);
// The same from the files' node GUIDs in node order, as text ("" for a node without one): what
// a golden recording keeps of the file it ran.
std::vector<std::string> node_guids(const Model& m);
NodePairing pair_guids(const std::vector<std::string>& original,
                       const std::vector<std::string>& edited);

// Every file of an actor by name: the top-level file and the modules it loaded.
std::map<std::string, const Model*> actor_files(const runtime::Graph& graph);

// The edits between two files (Edit::file left empty; nodes named by their original numbers).
// Compared through the text form (docs/text-form.md), so every field it holds counts, except
// those that only restate another (GUIDs, name hashes, the names shown beside indices, layout).
std::vector<Edit> edits_between(const Model& original, const Model& edited,
                                const NodePairing& pairing);

}  // namespace ainb::simulation
