// The option groups of a problem executable (Run, Physics, Measurement, Analysis: the tables
// of names, defaults and help texts) and the values among them that arrive as text, to be read
// by command_line.cpp once parsing is done. The checkpoint and instrument groups have files of
// their own.
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "driver/run_options.h"

namespace sph {

// Option values that arrive as text and are read once parsing is done.
struct TextOptions {
    std::string backend = "auto", devices, config, memory_limit, fault, balancing = "auto",
                mpi_buffers = "staged", out_of_domain = "remove", trace_window = "10:30",
                boundary = "dbc", slip = "problem", neighbours = "list", early_rebuild = "on",
                gradient_correction = "off", no_penetration = "auto", checkpoint_every,
                gauge_reading = "surface";
    std::vector<std::string> gauges, probes, walls, panels, moments, surfaces;
};

// Each group writes its settings into `o`, or as text into `t`.
boost::program_options::options_description run_options(RunOptions& o, TextOptions& t);
boost::program_options::options_description physics_options(RunOptions& o, TextOptions& t);
boost::program_options::options_description measurement_options(RunOptions& o, TextOptions& t);
boost::program_options::options_description analysis_options(RunOptions& o, TextOptions& t);

}  // namespace sph
