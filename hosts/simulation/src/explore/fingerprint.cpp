#include "fingerprint.hpp"

#include "ainb/runtime/instance.hpp"

namespace ainb::simulation::explorer {

namespace {

// FNV-1a over 64-bit words, then a final mix.
std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v;
  h *= 0x100000001B3ull;
  return h ^ (h >> 29);
}

}  // namespace

std::uint64_t text_hash(std::string_view text) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001B3ull;
  }
  return h;
}

std::uint64_t Fingerprint::file(const runtime::Instance& i) const {
  const auto& name = i.graph().file_name();
  // The top-level file may be saved under another name: 0 on both sides.
  if (i.parent() == nullptr) return 0;
  return text_hash(name);
}

std::int64_t Fingerprint::node(const runtime::Instance& i, std::uint32_t n) const {
  if (pairings_ == nullptr) return n;
  const auto& name = i.graph().file_name();
  const auto it = pairings_->find(name == edited_top_ ? original_top_ : name);
  return it == pairings_->end() ? static_cast<std::int64_t>(n) : it->second.original(n);
}

void Fingerprint::command(std::uint64_t frame, const runtime::Instance& i, std::string_view name) {
  add(mix(mix(mix(frame, 'c'), file(i)), text_hash(name)));
}

void Fingerprint::node_event(std::uint64_t frame, const runtime::Instance& i, char kind,
                             std::uint32_t n, std::uint64_t value) {
  const bool none = n == kNoNode;
  const auto type = none ? 0 : text_hash(node_class_name(i.graph().model().nodes[n]));
  const auto paired = none ? -1 : node(i, n);
  add(mix(mix(mix(mix(mix(frame, static_cast<std::uint64_t>(kind)), file(i)),
                  static_cast<std::uint64_t>(paired)),
              type),
          value));
}

void Fingerprint::transition(std::uint64_t frame, const runtime::Instance& i, std::uint32_t from,
                             std::uint32_t to) {
  node_event(frame, i, 't', from, static_cast<std::uint64_t>(node(i, to)));
}

void Fingerprint::detail(std::uint64_t frame, const runtime::Instance& i, char kind,
                         std::uint32_t n, std::string_view text) {
  node_event(frame, i, kind, n, text_hash(text));
}

}  // namespace ainb::simulation::explorer
