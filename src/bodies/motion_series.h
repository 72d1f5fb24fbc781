// A moving body's motion as a time series: a CSV file of samples t, dx, dy, dz (seconds and
// metres of displacement from where the body is laid out), through which its law is piecewise
// linear (kernels/body_motion.h). A measured gate lift, or a wave maker's paddle signal.
//
// The file: one sample a line, four numbers separated by commas (spaces around them allowed), or
// five on every line, the fifth the angle [degrees] the body has turned about its hinge;
// blank lines and lines starting with '#' are skipped, and so is a first line that holds no
// number (a header such as "t,dx,dy,dz"). At least two samples; times finite, not negative and
// strictly increasing; displacements finite, and zero at the first sample (a body starts where
// it is laid out). Anything else is refused, naming the file and the line.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "body_motion.h"

namespace sph {

// t [s], dx, dy, dz [m], theta [rad] (read in degrees)
using MotionSample = std::array<double, kSampleDoubles>;

// Throws std::invalid_argument ("gate.csv:7: ...") for anything the above does not allow, or
// naming the file where it cannot be read.
std::vector<MotionSample> read_motion_series(const std::string& path);

// The same from text already read; `name` stands for the file in messages.
std::vector<MotionSample> parse_motion_series(const std::string& text, const std::string& name);

}  // namespace sph
