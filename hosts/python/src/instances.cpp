// `ainb.Instance`: one actor a Python program starts and ticks itself, for embedding experiments
// (docs/python.md, "An actor of your own"). It wraps the front door (runtime::Runtime) and, when
// given an observer, the run's tracer, so the callback gets the events `ainb run` writes.

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "ainb/gamedata/catalogue.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "ainb/gamedata/use_romfs.hpp"
#include "ainb/runtime/runtime.hpp"
#include "ainb/simulation/tracer.hpp"
#include "bindings.hpp"

namespace ainb::python {

namespace {

using runtime::CommandState;

// Hands each event to a Python callable; what it raises faults the instance (an observer's
// fault), its traceback in the message.
class CallbackSink final : public simulation::TraceSink {
 public:
  explicit CallbackSink(py::object callback) : callback_(std::move(callback)) {}
  ~CallbackSink() override {
    py::gil_scoped_acquire gil;
    callback_ = py::object();
  }
  void event(const simulation::TraceEvent& e) override {
    std::string failure;
    {
      py::gil_scoped_acquire gil;
      try {
        callback_(event_dict(e));
      } catch (py::error_already_set& error) {
        failure = describe_exception(error);
      }
    }
    if (!failure.empty()) throw std::runtime_error(failure);
  }

 private:
  py::object callback_;
};

constexpr const char* kStates[] = {"idle", "running", "succeeded", "failed", "faulted"};

class Actor {
 public:
  // `data`: the file's bytes (named `spec` in messages), else `spec` is a path or PACK:MEMBER.
  Actor(const std::string& spec, const std::optional<py::bytes>& data, const py::dict& o,
        const py::object& observer) {
    // The options as a run reads them (runs.cpp, run_options: the table's rows).
    const auto options = run_options(o);
    auto& registry = runtime_.registry();
    for (const auto& [name, node_class] : options.node_classes)
      registry.add(name, node_class);
    simulation::configure_registry(registry, options);
    for (const auto& dir : options.modules)
      runtime_.add_module_folder(dir);
    if (options.stub_missing_modules)
      runtime_.options().missing_modules = runtime::MissingModulePolicy::Stub;
    const auto romfs = options.romfs.string();
    const auto zsdic = options.zsdic.string();
    dictionaries_ = gamedata::load_dictionaries(romfs, zsdic);
    std::vector<std::string> definitions;
    for (const auto& path : options.definitions)
      definitions.push_back(path.string());
    catalogue_ = gamedata::load_node_definitions(definitions, romfs, &dictionaries_);
    if (!catalogue_.classes().empty())
      registry.stub_outputs = gamedata::catalogue_stub_outputs(catalogue_);
    if (!romfs.empty() || !gamedata::parse_file_spec(spec).member.empty())
      gamedata::use_romfs(runtime_, romfs, zsdic);
    runtime_.set_log(
        [this](const runtime::LogEvent& e) { warnings_.push_back(runtime::log_line(e)); });
    if (data) {
      const std::string_view bytes = *data;
      graph_ = runtime_.load(
          std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), spec);
    } else {
      graph_ = runtime_.load(spec);
    }
    if (!observer.is_none()) {
      sink_ = std::make_unique<CallbackSink>(observer);
      tracer_ = std::make_unique<simulation::Tracer>(sink_.get(), summary_);
    }
    actor_ = std::make_unique<runtime::Instance>(
        graph_, runtime::InstanceOptions{.seed = options.seed, .observer = tracer_.get()});
  }

  void start(const std::optional<std::string>& command) {
    const auto& commands = graph_->model().commands;
    std::string name = command.value_or("");
    if (!command) {
      if (commands.empty())
        throw py::value_error(fmt::format("{} has no commands", graph_->file_name()));
      name = commands.front().name;
    }
    // Events of a start carry the last frame ticked (0 before the first), as a run's first start.
    unlocked([&] {
      set_frame(actor_->frame());
      actor_->start(name);
    });
  }

  std::string tick(std::uint64_t frames) {
    unlocked([&] {
      for (std::uint64_t f = 0; f < frames && actor_->state() != CommandState::Faulted; ++f) {
        set_frame(actor_->frame() + 1);
        actor_->tick();
      }
    });
    return state();
  }

  std::string tick_while_running(std::uint64_t max_frames) {
    unlocked([&] {
      for (std::uint64_t f = 0; f < max_frames && actor_->state() == CommandState::Running; ++f) {
        set_frame(actor_->frame() + 1);
        actor_->tick();
      }
    });
    return state();
  }

  void stop() {
    unlocked([&] {
      set_frame(actor_->frame());
      actor_->stop();
    });
  }

  std::string state() const { return kStates[static_cast<int>(actor_->state())]; }
  std::optional<std::string> fault() const {
    if (const auto* f = actor_->fault()) return f->describe();
    return std::nullopt;
  }
  runtime::Instance& instance() {
    refuse_if_busy();
    return *actor_;
  }
  const runtime::Graph& graph() const { return *graph_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  void set_frame(std::uint64_t frame) {
    if (tracer_) tracer_->frame = frame;
  }
  void refuse_if_busy() const {
    if (busy_)
      throw std::logic_error(
          "the instance is ticking (on another thread, or it is its own node "
          "class calling it)");
  }
  // Runs `body` without the GIL (the runtime's own nodes need none; Python classes and the
  // observer take it back), once at a time.
  template <typename Body>
  void unlocked(Body body) {
    refuse_if_busy();
    busy_ = true;
    try {
      py::gil_scoped_release released;
      body();
    } catch (...) {
      busy_ = false;
      throw;
    }
    busy_ = false;
  }

  // Destroyed last to first: the actor leaves its nodes (calling Python classes and the
  // observer) while all it uses is alive.
  runtime::Runtime runtime_;
  formats::ZstdDictionaries dictionaries_;
  formats::NodeCatalogue catalogue_;
  std::shared_ptr<const runtime::Graph> graph_;
  std::vector<std::string> warnings_;
  simulation::Summary summary_;
  std::unique_ptr<CallbackSink> sink_;
  std::unique_ptr<simulation::Tracer> tracer_;
  std::unique_ptr<runtime::Instance> actor_;
  bool busy_ = false;  // read and written with the GIL held
};

}  // namespace

void bind_instances(py::module_& m) {
  py::class_<Actor>(m, "Instance")
      .def(py::init<const std::string&, const std::optional<py::bytes>&, const py::dict&,
                    const py::object&>(),
           py::arg("spec"), py::arg("data"), py::arg("options"), py::arg("observer"))
      .def("start", &Actor::start, py::arg("command") = py::none())
      .def("tick", &Actor::tick, py::arg("frames") = 1)
      .def("tick_while_running", &Actor::tick_while_running, py::arg("max_frames"))
      .def("stop", &Actor::stop)
      .def_property_readonly("state", &Actor::state)
      .def_property_readonly("fault", &Actor::fault)
      .def_property_readonly("command",
                             [](Actor& a) { return std::string(a.instance().command()); })
      .def_property_readonly("frame", [](Actor& a) { return a.instance().frame(); })
      .def_property_readonly("file", [](const Actor& a) { return a.graph().file_name(); })
      .def_property_readonly("commands",
                             [](const Actor& a) {
                               std::vector<std::string> names;
                               for (const auto& c : a.graph().model().commands)
                                 names.emplace_back(c.name);
                               return names;
                             })
      .def_property_readonly("warnings", &Actor::warnings)
      .def("blackboard", [](Actor& a) { return blackboard_dict(a.instance()); })
      .def("get",
           [](Actor& a, std::string_view name) { return get_blackboard(a.instance(), name); })
      .def("set", [](Actor& a, std::string_view name, py::handle value) {
        set_blackboard(a.instance(), name, value);
      });
}

}  // namespace ainb::python
