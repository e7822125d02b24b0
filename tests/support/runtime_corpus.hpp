#pragma once

// How the runtime tests build the graphs of the corpus files.

#include "ainb/runtime/graph.hpp"
#include "ainb/runtime/modules.hpp"

namespace ainb::test {

// The corpus's module files are found beside the roots; the others run as stubs.
inline runtime::GraphOptions corpus_options(const runtime::DirectoryResolver& resolver) {
  return runtime::GraphOptions{.modules = &resolver,
                               .missing_modules = runtime::MissingModulePolicy::Stub};
}

}  // namespace ainb::test
