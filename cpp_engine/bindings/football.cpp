// Bindings of the football engine: the scenario/env configs, the batch, and the
// observation field tables. The binding checks every buffer once and every action
// array per step, then releases the GIL for the step itself.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>

#include "bindings/batch.h"
#include "football/batch.h"
#include "football/obs.h"
#include "football/render.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace trackfield::bindings {

namespace fb = trackfield::football;

namespace {

void check_finite(float v, const char* name) {
  if (!std::isfinite(v)) throw py::value_error(std::string(name) + " must be finite");
}

void add_player(fb::ScenarioConfig& sc, int team, float x, float y, int role, bool lazy, bool controllable) {
  if (team < 0 || team > 1) throw py::value_error("team must be 0 (left) or 1 (right)");
  if (sc.num_players[team] >= fb::kMaxTeamPlayers)
    throw py::value_error("a team can have at most 11 players");
  if (role < 0 || role >= fb::kNumRoles) throw py::value_error("unknown role " + std::to_string(role));
  check_finite(x, "x");
  check_finite(y, "y");
  fb::PlayerSetup& p = sc.players[team][sc.num_players[team]++];
  p.x = x;
  p.y = y;
  p.role = role;
  p.lazy = lazy;
  p.controllable = controllable;
}

py::list player_list(const fb::ScenarioConfig& sc, int team) {
  if (team < 0 || team > 1) throw py::value_error("team must be 0 (left) or 1 (right)");
  py::list out;
  for (int s = 0; s < sc.num_players[team]; ++s) {
    const fb::PlayerSetup& p = sc.players[team][s];
    out.append(py::make_tuple(p.x, p.y, p.role, p.lazy, p.controllable));
  }
  return out;
}

}  // namespace

void bind_football(py::module_& m) {
  m.attr("MAX_TEAM_PLAYERS") = fb::kMaxTeamPlayers;
  m.attr("NUM_ACTIONS") = fb::kNumActions;
  m.attr("ACTION_SETS") = py::dict("default"_a = static_cast<int>(fb::kActionSetDefault),
                                   "v2"_a = static_cast<int>(fb::kActionSetV2),
                                   "full"_a = static_cast<int>(fb::kActionSetFull));
  m.attr("NUM_REWARD_COMPONENTS") = fb::kNumRewardComponents;
  m.attr("SMM_SHAPE") = py::make_tuple(fb::kSmmHeight, fb::kSmmWidth, fb::kSmmChannels);
  m.attr("SIMPLE115_SIZE") = fb::kSimple115Size;
  m.attr("REPRESENTATIONS") = py::dict("raw"_a = static_cast<int>(fb::kRaw),
                                       "simple115v2"_a = static_cast<int>(fb::kSimple115),
                                       "smm"_a = static_cast<int>(fb::kSmm),
                                       "pixels"_a = static_cast<int>(fb::kPixels),
                                       "pixels_gray"_a = static_cast<int>(fb::kPixelsGray));

  py::class_<fb::ScenarioConfig>(m, "ScenarioConfig", "What a GRF scenario file's builder records.")
      .def(py::init<>())
      .def_readwrite("game_duration", &fb::ScenarioConfig::game_duration)
      .def_readwrite("deterministic", &fb::ScenarioConfig::deterministic)
      .def_readwrite("offsides", &fb::ScenarioConfig::offsides)
      .def_readwrite("end_episode_on_score", &fb::ScenarioConfig::end_episode_on_score)
      .def_readwrite("end_episode_on_out_of_play", &fb::ScenarioConfig::end_episode_on_out_of_play)
      .def_readwrite("end_episode_on_possession_change", &fb::ScenarioConfig::end_episode_on_possession_change)
      .def_readwrite("left_team_difficulty", &fb::ScenarioConfig::left_team_difficulty)
      .def_readwrite("right_team_difficulty", &fb::ScenarioConfig::right_team_difficulty)
      .def_readwrite("second_half", &fb::ScenarioConfig::second_half)
      .def_readwrite("control_all_players", &fb::ScenarioConfig::control_all_players)
      .def_readwrite("handballs", &fb::ScenarioConfig::handballs)
      .def_readwrite("handball_probability", &fb::ScenarioConfig::handball_probability)
      .def_readwrite("ball_x", &fb::ScenarioConfig::ball_x)
      .def_readwrite("ball_y", &fb::ScenarioConfig::ball_y)
      .def("add_player", &add_player, py::arg("team"), py::arg("x"), py::arg("y"), py::arg("role"),
           py::arg("lazy") = false, py::arg("controllable") = true)
      .def("num_players", [](const fb::ScenarioConfig& sc, int team) {
        if (team < 0 || team > 1) throw py::value_error("team must be 0 (left) or 1 (right)");
        return sc.num_players[team];
      })
      .def("players", &player_list, py::arg("team"), "[(x, y, role, lazy, controllable), ...]");

  py::class_<fb::EnvConfig>(m, "EnvConfig")
      .def(py::init<>())
      .def_readwrite("left_agents", &fb::EnvConfig::left_agents)
      .def_readwrite("right_agents", &fb::EnvConfig::right_agents)
      .def_readwrite("representation", &fb::EnvConfig::representation)
      .def_readwrite("stack", &fb::EnvConfig::stack)
      .def_readwrite("channel_width", &fb::EnvConfig::channel_width)
      .def_readwrite("channel_height", &fb::EnvConfig::channel_height)
      .def_readwrite("scoring_weight", &fb::EnvConfig::scoring_weight)
      .def_readwrite("checkpoint_weight", &fb::EnvConfig::checkpoint_weight)
      .def_readwrite("action_set", &fb::EnvConfig::action_set)
      .def_readwrite("teammate_ai", &fb::EnvConfig::teammate_ai)
      .def("set_scenario", [](fb::EnvConfig& c, int parity, const fb::ScenarioConfig& sc) {
        if (parity < 0 || parity > 1) throw py::value_error("parity must be 0 or 1");
        c.scenario[parity] = sc;
      });

  m.def("raw_fields", [](int n_own, int n_opp, int action_set) {
    if (n_own < 1 || n_own > fb::kMaxTeamPlayers || n_opp < 1 || n_opp > fb::kMaxTeamPlayers)
      throw py::value_error("team sizes must be in [1, 11]");
    if (action_set < fb::kActionSetDefault || action_set > fb::kActionSetFull)
      throw py::value_error("action_set must be 0 (default), 1 (v2) or 2 (full)");
    return field_list(fb::raw_fields(n_own, n_opp, fb::sticky_action_count(action_set)));
  }, py::arg("n_own"), py::arg("n_opp"), py::arg("action_set") = 0,
  "GRF's raw observation fields as (name, shape, dtype, low, high, description), in row order.");

  using PyFootballBatch = PyBatch<fb::FootballDomain>;
  bind_batch<fb::FootballDomain>(m, "A batch of football worlds stepped in C++ over a thread pool.")
      .def("render", [](PyFootballBatch& pb, int i, int width) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        if (width < 96 || width > 4096) throw py::value_error("width must be in [96, 4096]");
        int height = fb::render_height(width);
        py::array_t<uint8_t> img({height, width, 3});
        fb::render_rgb(pb.batch->world(i), width, height, img.mutable_data());
        return img;
      }, py::arg("index") = 0, py::arg("width") = 480, "An RGB top-down picture of world `index`.")
      .def("active_players", [](PyFootballBatch& pb, int i) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        const fb::World& w = pb.batch->world(i);
        py::list out;
        for (int a = 0; a < w.num_agents; ++a) out.append(w.agents[a].player);
        return out;
      }, py::arg("index") = 0, "Global player index driven by each agent (team * 11 + slot).");
}

}  // namespace trackfield::bindings
