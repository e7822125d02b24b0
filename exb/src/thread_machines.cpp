#include "ainb/exb/thread_machines.hpp"

#include <algorithm>
#include <vector>

namespace ainb::exb {

namespace {

struct Entry {
  std::uint64_t program = 0;       // ProgramIdentity::serial
  std::weak_ptr<const void> life;  // expires with the program
  MachineOptions options;
  bool lent = false;
  std::unique_ptr<Machine> machine;
};

// Most recently borrowed first: a thread ticking many actors of one graph finds its machine in
// the first entry, one alternating between a file and its modules in the first few. (Entries
// are held by pointer, so a lease's flag stays put while the list changes under a nested
// borrow.)
struct Entries {
  std::vector<std::unique_ptr<Entry>> list;
  ~Entries();
};
thread_local Entries t_entries;
// The first entry, for the common borrow: a thread-local pointer needs no first-use test, where
// the list (which frees the machines when the thread ends) is reached through one.
thread_local Entry* t_first = nullptr;
Entries::~Entries() {
  t_first = nullptr;
}

bool fits(const Entry& e, std::uint64_t program, const MachineOptions& options) {
  return e.program == program && !e.lent && e.options == options;
}

// Any borrow but the most recent entry's: found further down the list or made, then first.
[[gnu::noinline]] MachineLease find_or_make(const Program& program, const MachineOptions& options) {
  const auto serial = program.identity().serial();
  auto& entries = t_entries.list;
  auto found = std::find_if(entries.begin(), entries.end(),
                            [&](const auto& e) { return fits(*e, serial, options); });
  if (found == entries.end()) {
    // The one allocation of a program on this thread: drop the machines of programs that are
    // gone first (their machines refer to them; no borrow can match them again).
    std::erase_if(entries, [](const auto& e) { return !e->lent && e->life.expired(); });
    auto entry = std::make_unique<Entry>();
    entry->program = serial;
    entry->life = program.identity().life();
    entry->options = options;
    entry->machine = std::make_unique<Machine>(program, options);
    entries.push_back(std::move(entry));
    found = entries.end() - 1;
  }
  std::rotate(entries.begin(), found, found + 1);
  t_first = entries.front().get();
  return {*t_first->machine, t_first->lent};
}

}  // namespace

MachineLease thread_machine(const Program& program, const MachineOptions& options) {
  if (auto* first = t_first; first != nullptr && fits(*first, program.identity().serial(), options))
      [[likely]]
    return {*first->machine, first->lent};
  return find_or_make(program, options);
}

std::size_t thread_machines_kept() {
  return t_entries.list.size();
}

}  // namespace ainb::exb
