#pragma once

// The memory a host lends an instance (InstanceOptions::memory): a polymorphic memory resource,
// Boost.Container's. Its interface is the same as std::pmr's, and unlike std::pmr it exists in
// the standard library of every build the runtime has, the WebAssembly one included (docs/web.md,
// "One source, two libraries"; docs/embedding.md, "Many actors").

#include <boost/container/pmr/memory_resource.hpp>

namespace ainb::runtime {

using MemoryResource = boost::container::pmr::memory_resource;

}  // namespace ainb::runtime
