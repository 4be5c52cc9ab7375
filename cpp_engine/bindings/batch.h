// The binding of Batch<Domain>, shared by every domain: `layout(config)` tells Python
// what to allocate, `Batch(config, num_envs, num_threads, autoreset, buffers)` checks
// each numpy buffer once (dtype, contiguity, size: a readable error naming it, never a
// crash) and keeps raw views; `step()` checks the actions and releases the GIL.
// A domain's binding file calls bind_batch<Domain>(module) and adds its own methods.
#ifndef TRACKFIELD_BINDINGS_BATCH_H
#define TRACKFIELD_BINDINGS_BATCH_H

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "bindings/buffers.h"
#include "bindings/info.h"
#include "common/batch.h"

namespace trackfield::bindings {

namespace py = pybind11;

inline py::list field_list(const std::vector<FieldSpec>& fields) {
  py::list out;
  for (const FieldSpec& f : fields)
    out.append(py::make_tuple(f.name, py::tuple(py::cast(f.shape)), f.dtype, f.low, f.high, f.description));
  return out;
}

inline py::dict layout_dict(const BatchLayout& l) {
  py::dict d;
  py::list shape = py::cast(l.frame_shape);
  shape[shape.size() - 1] = py::int_(l.frame_shape.back() * l.stack);
  d["obs_shape"] = py::tuple(shape);  // one agent's observation, frames stacked
  d["frame_shape"] = py::tuple(py::cast(l.frame_shape));
  d["obs_dtype"] = l.obs_dtype;
  d["stack"] = l.stack;
  d["num_agents"] = l.num_agents;
  d["action_size"] = l.action_size;
  d["action_dtype"] = l.discrete_actions ? "int32" : "float32";
  d["action_low"] = l.action_low;
  d["action_high"] = l.action_high;
  d["reward_components"] = l.reward_components;
  d["episode_stats"] = field_list(l.episode_stats);
  d["world_info"] = field_list(l.world_info);
  d["agent_info"] = field_list(l.agent_info);
  return d;
}

// Owns the numpy buffers so they outlive the engine's raw pointers to them.
template <typename Domain>
struct PyBatch {
  py::dict arrays;
  std::unique_ptr<Batch<Domain>> batch;
  InfoBuilder info;
  BatchBuffers buffers;  // raw views of `arrays`, for info_one
};

template <typename T>
T* take_buffer(py::dict& given, py::dict& kept, const char* name, size_t elems) {
  if (!given.contains(name)) throw py::value_error(std::string("buffers: missing '") + name + "'");
  py::object value = given[name];
  if (!py::isinstance<py::array>(value)) throw py::type_error(std::string(name) + ": expected a numpy array");
  auto arr = py::reinterpret_borrow<py::array>(value);
  kept[name] = arr;
  return checked_buffer<T>(arr, name, elems);
}

template <typename Domain>
std::unique_ptr<PyBatch<Domain>> make_batch(const typename Domain::Config& cfg, int num_envs, int num_threads,
                                            bool autoreset, py::dict given) {
  if (num_envs < 1) throw py::value_error("num_envs must be at least 1");
  if (num_threads < 1) throw py::value_error("num_threads must be at least 1");
  Domain::check_config(cfg);
  const BatchLayout l = Domain::layout(cfg);
  const size_t n = num_envs, a = l.num_agents, obs = n * a * l.obs_size();
  const size_t k = l.reward_components.size(), s = fields_size(l.episode_stats);
  const size_t w = fields_size(l.world_info), g = fields_size(l.agent_info);
  auto pb = std::make_unique<PyBatch<Domain>>();
  py::dict& kept = pb->arrays;
  BatchBuffers b;
  if (l.obs_dtype == "uint8") {
    b.obs = take_buffer<uint8_t>(given, kept, "obs", obs);
    b.final_obs = take_buffer<uint8_t>(given, kept, "final_obs", obs);
  } else {
    b.obs = take_buffer<float>(given, kept, "obs", obs);
    b.final_obs = take_buffer<float>(given, kept, "final_obs", obs);
  }
  if (l.discrete_actions) b.actions = take_buffer<int32_t>(given, kept, "actions", n * a * l.action_size);
  else b.actions = take_buffer<float>(given, kept, "actions", n * a * l.action_size);
  b.rewards = take_buffer<float>(given, kept, "rewards", n * a);
  b.reward_components = take_buffer<float>(given, kept, "reward_components", n * a * k);
  b.terminated = take_buffer<bool>(given, kept, "terminated", n);
  b.truncated = take_buffer<bool>(given, kept, "truncated", n);
  b.live = take_buffer<bool>(given, kept, "live", n * a);
  b.agent_terminated = take_buffer<bool>(given, kept, "agent_terminated", n * a);
  b.agent_truncated = take_buffer<bool>(given, kept, "agent_truncated", n * a);
  b.episode_return = take_buffer<float>(given, kept, "episode_return", n * a);
  b.episode_length = take_buffer<int32_t>(given, kept, "episode_length", n);
  b.episode_stats = take_buffer<double>(given, kept, "episode_stats", n * s);
  b.world_info = take_buffer<double>(given, kept, "world_info", n * w);
  b.agent_info = take_buffer<double>(given, kept, "agent_info", n * a * g);
  b.final_world_info = take_buffer<double>(given, kept, "final_world_info", n * w);
  b.final_agent_info = take_buffer<double>(given, kept, "final_agent_info", n * a * g);
  for (auto item : given)
    if (!kept.contains(item.first))
      throw py::value_error("buffers: unknown buffer '" + std::string(py::str(item.first)) + "'");
  pb->batch = std::make_unique<Batch<Domain>>(cfg, num_envs, num_threads, autoreset, b);
  pb->info = InfoBuilder(l.world_info, l.agent_info, l.reward_components);
  pb->buffers = b;
  return pb;
}

template <typename Domain>
py::class_<PyBatch<Domain>> bind_batch(py::module_& m, const char* doc) {
  using P = PyBatch<Domain>;
  using Config = typename Domain::Config;
  m.def("layout", [](const Config& cfg) {
    Domain::check_config(cfg);
    return layout_dict(Domain::layout(cfg));
  }, py::arg("config"), "What a batch's buffers hold for this config (shapes, dtypes, names).");
  py::class_<P> cls(m, "Batch", doc);
  cls.def(py::init(&make_batch<Domain>), py::arg("config"), py::arg("num_envs"), py::arg("num_threads"),
          py::arg("autoreset"), py::arg("buffers"))
      .def_property_readonly("num_envs", [](P& pb) { return pb.batch->num_envs(); })
      .def_property_readonly("num_agents", [](P& pb) { return pb.batch->num_agents(); })
      .def_property_readonly("num_threads", [](P& pb) { return pb.batch->num_threads(); })
      .def_property_readonly("obs_size", [](P& pb) { return pb.batch->layout().obs_size(); })
      .def("reset_all", [](P& pb, uint64_t seed) {
        py::gil_scoped_release release;
        pb.batch->reset_all(seed);
      }, py::arg("seed"), "Resets every world; world i is seeded from (seed, i).")
      .def("reset_one", [](P& pb, int i, py::object seed) {
        const bool seeded = !seed.is_none();
        pb.batch->reset_one(i, seeded ? seed.cast<uint64_t>() : 0, seeded);
      }, py::arg("index"), py::arg("seed") = py::none(),
         "Resets world `index`, from (seed, index), or from its own generator if seed is None.")
      .def("step", [](P& pb) {
        pb.batch->check_actions();
        py::gil_scoped_release release;
        pb.batch->step();
      }, "Steps every world with the actions buffer; writes all outputs in place.")
      .def("info_one", [](P& pb, int i, bool final) {
        const BatchLayout& l = pb.batch->layout();
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("info_one: world index out of range");
        if (l.num_agents != 1) throw py::value_error("info_one: the world has several agent slots");
        const size_t w = fields_size(l.world_info), g = fields_size(l.agent_info), k = l.reward_components.size();
        const BatchBuffers& b = pb.buffers;
        return pb.info.build((final ? b.final_world_info : b.world_info) + i * w,
                             g ? (final ? b.final_agent_info : b.agent_info) + i * g : nullptr,
                             b.reward_components + i * k);
      }, py::arg("index"), py::arg("final") = false,
         "info of one-agent world `index` (its final info after an autoreset if `final`), as a dict.")
      .def("get_state", [](P& pb, int i) { return py::bytes(pb.batch->get_state(i)); }, py::arg("index") = 0)
      .def("set_state", [](P& pb, int i, py::bytes state) { pb.batch->set_state(i, std::string(state)); },
           py::arg("index"), py::arg("state"));
  return cls;
}

}  // namespace trackfield::bindings

#endif
