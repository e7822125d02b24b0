#pragma once

// Machines shared by everything one thread evaluates. Between runs a Machine holds nothing but
// its program's constants (every other space is loaded, zeroed or written by the run that reads
// it), so the actors a thread ticks need not each own one: they borrow the thread's machine for
// their program, whose object and arena stay in that core's caches from actor to actor, where
// one machine per actor is a few more cache lines to fetch for every actor that evaluates
// (docs/benchmarks-runtime-history.md, "One machine per thread").
//
// A thread keeps one machine per program and options it has evaluated, made on first use (the
// one allocation; later borrows allocate nothing), until the program is destroyed: the next
// borrow that makes a machine frees those of programs that are gone, and the thread's exit frees
// the rest. A borrow made while the thread's machine for that program is already lent (a user
// function that evaluates again, further up the stack) gets a machine of its own.

#include <cstddef>

#include "ainb/exb/machine.hpp"

namespace ainb::exb {

class MachineLease {
 public:
  MachineLease(Machine& machine, bool& lent) : machine_(&machine), lent_(&lent) { lent = true; }
  MachineLease(const MachineLease&) = delete;
  MachineLease& operator=(const MachineLease&) = delete;
  ~MachineLease() { *lent_ = false; }

  Machine& operator*() const { return *machine_; }
  Machine* operator->() const { return machine_; }

 private:
  Machine* machine_;
  bool* lent_;
};

// The calling thread's machine for `program` and `options`, lent until the lease ends.
MachineLease thread_machine(const Program& program, const MachineOptions& options = {});
// The machines the calling thread keeps (for tests and diagnostics).
std::size_t thread_machines_kept();

}  // namespace ainb::exb
