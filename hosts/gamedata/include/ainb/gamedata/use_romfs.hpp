#pragma once

// A game's files for the front door: after use_romfs, Runtime::load opens romfs paths and
// PACK:MEMBER (Pack/Actor/X.pack.zs:AI/X.root.ainb), finds modules in the pack and the romfs,
// and starts blackboard entries from the parameter files they reference (docs/formats.md,
// "Game layouts").

#include <filesystem>

#include "ainb/runtime/runtime.hpp"

namespace ainb::gamedata {

// `romfs`: the game's unpacked file system (may be empty: packs named by path only); `zsdic`: its
// zstd dictionaries when not ROMFS/Pack/ZsDic.pack.zs (load_dictionaries). Throws LoadError
// when the dictionaries do not load. Module folders added to the runtime come before the romfs.
// A parameter file missing or not fitting is a LogKind::ParameterFile warning to the runtime's
// sink, once per load; the runtime must outlive its loads (as it does: the hooks run inside
// Runtime::load). Each load of a path or pack member reads loose parameter files afresh, so a
// reload sees an edited one; packs, once opened, stay open (an edited pack is not read again).
void use_romfs(runtime::Runtime& runtime, const std::filesystem::path& romfs,
               const std::filesystem::path& zsdic = {});

}  // namespace ainb::gamedata
