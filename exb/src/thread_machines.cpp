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
thread_local std::vector<std::unique_ptr<Entry>> t_entries;

bool fits(const Entry& e, std::uint64_t program, const MachineOptions& options) {
  return e.program == program && !e.lent && e.options == options;
}

}  // namespace

MachineLease thread_machine(const Program& program, const MachineOptions& options) {
  auto& entries = t_entries;
  const auto serial = program.identity().serial();
  if (!entries.empty() && fits(*entries.front(), serial, options)) [[likely]]
    return {*entries.front()->machine, entries.front()->lent};
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
  return {*entries.front()->machine, entries.front()->lent};
}

std::size_t thread_machines_kept() {
  return t_entries.size();
}

}  // namespace ainb::exb
