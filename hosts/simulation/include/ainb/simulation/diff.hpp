#pragma once

// The structural difference of two versions of one AI file (`ainb diff`, and the edits
// `ainb regress` lists): nodes paired by GUID, then compared through the text form
// (docs/text-form.md) part by part. docs/diff.md.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/model.hpp"

namespace ainb::simulation {

// The nodes of two versions of one file, paired: by GUID where the GUID is unique in each file
// (a node keeps its GUID when others are inserted or deleted before it), else by index where
// neither node at that index has a partner yet. -1: no partner (a new or a deleted node).
struct NodePairing {
  std::vector<std::int64_t> original_of;  // by edited index
  std::vector<std::int64_t> edited_of;    // by original index
  // The GUIDs the pairing was made from ("" for none): nodes that share a GUID are the same node
  // wherever the pairing had to guess which of them is the copy.
  std::vector<std::string> original_guids, edited_guids;
  // Whether edited node `node` carries the GUID of original node `original`.
  bool same_guid(std::int64_t original, std::int64_t node) const {
    if (original < 0 || node < 0 || static_cast<std::size_t>(original) >= original_guids.size() ||
        static_cast<std::size_t>(node) >= edited_guids.size())
      return false;
    const auto& g = original_guids[static_cast<std::size_t>(original)];
    return !g.empty() && g == edited_guids[static_cast<std::size_t>(node)];
  }
  // The original's index of edited node `node` (-1 when it is new); -1 stays -1.
  std::int64_t original(std::int64_t node) const {
    return node < 0 || static_cast<std::size_t>(node) >= original_of.size()
               ? -1
               : original_of[static_cast<std::size_t>(node)];
  }
};

// One difference between two versions of a file, found through their text forms: of a node
// (original_node, or edited_node alone for a new one) or of the file itself (both -1). `what`
// reads "property Speed is 1 in the original and 2 in the edited file".
struct Edit {
  std::string file;  // the top-level file under the original's name, or a module's
  std::int64_t original_node = -1;
  std::int64_t edited_node = -1;
  std::string what;
  // The same for tools: the part changed ("node", "property", "input", "output", "plug",
  // "class", "expression", "command", "blackboard", "module", ...: docs/diff.md), how ("added",
  // "removed", "changed", "reordered"), what `what` calls it ("input Speed source node",
  // "command Spare") and the values of both sides as the text form has them, with node
  // references as "#N", the original's numbers (none where `change` says a side has none).
  std::string kind;
  std::string change;
  std::string subject;
  nlohmann::ordered_json before, after;
};

// The difference of two files: their pairing, and every edit (the file's first, then the nodes
// in the original's order, then the new ones).
struct FileDiff {
  NodePairing pairing;
  std::vector<Edit> edits;
  bool same() const { return edits.empty(); }
};
FileDiff diff_files(const Model& original, const Model& edited);

// A value of an edit (Edit::before, after) as `what` shows it: floats as the file's float32,
// strings bare, a node reference with what else it says ("#4 (condition 2)"), long JSON cut.
std::string shown_value(const nlohmann::ordered_json& value);

}  // namespace ainb::simulation
