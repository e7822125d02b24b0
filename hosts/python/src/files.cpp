// Files: loading (a path, bytes, a pack member), the counts `ainb info` shows, the text form both
// ways and the writer. The Python package builds its File, Node and Command views on these.

#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "ainb/formats/sarc.hpp"
#include "ainb/formats/zstd.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "bindings.hpp"

namespace ainb::python {

namespace {

py::bytes to_bytes(std::span<const std::uint8_t> data) {
  return py::bytes(reinterpret_cast<const char*>(data.data()),
                   static_cast<py::ssize_t>(data.size()));
}

std::vector<std::uint8_t> from_bytes(const py::bytes& data) {
  const std::string_view view = data;
  return {view.begin(), view.end()};
}

// A plain path, or PACK:MEMBER (Pack/Actor/X.pack.zs:AI/X.root.ainb), looked up in `romfs` when
// it is not found as given, as `ainb info` does.
File load_spec(const std::string& spec, const std::string& romfs, const std::string& zsdic) {
  if (romfs.empty() && gamedata::parse_file_spec(spec).member.empty())
    return {load_file(spec), spec};
  const auto dictionaries = gamedata::load_dictionaries(romfs, zsdic);
  gamedata::FileSource files(romfs, &dictionaries);
  return {gamedata::open_ai_file(spec, files), spec};
}

py::dict info(const Model& m) {
  py::dict sections;
  for (const auto& [section, count] : section_counts(m))
    sections[py::str(std::string(section))] = count;
  std::map<std::string, std::size_t> histogram;
  for (const auto& n : m.nodes)
    ++histogram[std::string(node_type_name(n.type))];
  std::vector<std::string> functions;
  if (m.expressions) {
    for (const auto signature : m.expressions->signatures)
      functions.emplace_back(signature);
  }
  py::list modules;
  for (const auto& mod : m.modules) {
    modules.append(py::dict(py::arg("path") = std::string(mod.path),
                            py::arg("category") = std::string(mod.category),
                            py::arg("instance_count") = mod.instance_count));
  }
  py::dict result;
  result["file"] = m.name;
  result["name"] = std::string(m.header.file_name);
  result["version"] = m.version();
  result["category"] = std::string(m.header.category_name);
  result["size"] = m.bytes.size();
  result["sections"] = sections;
  result["node_types"] = histogram;
  result["user_functions"] = functions;
  result["modules"] = modules;
  return result;
}

// A pack opened once, its members read on request.
struct Pack {
  formats::Sarc sarc;
};

}  // namespace

void bind_files(py::module_& m) {
  py::class_<File>(m, "File")
      .def_property_readonly("name", [](const File& f) { return f.model->name; })
      .def_property_readonly("path", [](const File& f) { return f.path; })
      .def("info", [](const File& f) { return info(*f.model); })
      .def("text", [](const File& f) { return writer::to_text(*f.model).dump(); })
      .def("write", [](const File& f) { return to_bytes(writer::write(*f.model)); })
      .def("bytes", [](const File& f) { return to_bytes(f.model->bytes); });

  m.def("load_spec", &load_spec, py::arg("spec"), py::arg("romfs") = "", py::arg("zsdic") = "");
  m.def(
      "load_bytes",
      [](const py::bytes& data, std::string name) {
        return File{load(from_bytes(data), std::move(name)), {}};
      },
      py::arg("data"), py::arg("name"));
  m.def(
      "from_text",
      [](const std::string& text, const std::string& name) {
        nlohmann::ordered_json json;
        try {
          json = nlohmann::ordered_json::parse(text);
        } catch (const nlohmann::json::parse_error& e) {
          throw writer::TextFormError("", std::string("not JSON: ") + e.what());
        }
        return File{load(writer::from_text(json, name), name), {}};
      },
      py::arg("text"), py::arg("name"));

  py::class_<Pack>(m, "Pack")
      .def_property_readonly("name", [](const Pack& p) { return p.sarc.file_name(); })
      .def_property_readonly("members",
                             [](const Pack& p) {
                               std::vector<std::string> names;
                               for (const auto& file : p.sarc.files())
                                 names.push_back(file.name);
                               return names;
                             })
      .def("read",
           [](const Pack& p, std::string_view member) { return to_bytes(p.sarc.member(member)); });
  m.def(
      "open_pack",
      [](const std::string& path, const std::string& zsdic) {
        const auto dictionaries =
            zsdic.empty() ? formats::ZstdDictionaries() : formats::ZstdDictionaries::load(zsdic);
        return Pack{formats::open_pack_file(path, &dictionaries)};
      },
      py::arg("path"), py::arg("zsdic") = "");
}

}  // namespace ainb::python
