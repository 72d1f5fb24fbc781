// The instruments a command line adds: --gauge X,Y, --probe X,Y,Z, --wall-sensor X,Y,Z,FACE,D,
// --wall-panel X0,Y0,Z0,X1,Y1,Z1,FACE, --wall-moment X0,Y0,Z0,X1,Y1,Z1,FACE,ARM and
// --wall-surface X0,Y0,Z0,X1,Y1,Z1,AXIS, parsed and checked against the problem's domain. Every
// error is an OptionError that names the option and the text.
#pragma once

#include <string>
#include <vector>

#include "driver/run_options.h"
#include "problem.h"

namespace sph {

// The numbers of "x,y[,z]": exactly `count` finite numbers.
std::vector<double> parse_coordinates(const std::string& text, int count, const char* option);

// "X,Y,Z,FACE,D" (FACE one of +x -x +y -y +z -z, D > 0) as a sensor named `name`.
WallSensor parse_wall_sensor(const std::string& text, const std::string& name);

// "X0,Y0,Z0,X1,Y1,Z1,FACE": the rectangle with those opposite corners on a face normal to FACE's
// axis (both corners on it: the same coordinate along that axis; a positive side along the other
// two), as a panel named `name`.
WallSensor parse_wall_panel(const std::string& text, const std::string& name);

// "X0,Y0,Z0,X1,Y1,Z1,FACE,ARM": that panel's moment about its edge across ARM's axis (one of the
// face's own, +: the edge at its low end along it, -: its high end), named `name`.
WallSensor parse_wall_moment(const std::string& text, const std::string& name);

// "X0,Y0,Z0,X1,Y1,Z1,AXIS": the surface panel (wall_surface) of the box with those opposite
// corners (a positive side along each axis), reading the force along AXIS (+x ... -z), named
// `name`.
WallSensor parse_wall_surface(const std::string& text, const std::string& name);

// The texts of the repeated options, in the order given.
struct InstrumentTexts {
    std::vector<std::string> gauges, probes, walls, panels, moments, surfaces;
};

// Adds them to `o` (G<n>, Q<n>, W<n>, F<n>, M<n>, FS<n>), each inside `domain`.
void add_instruments(const InstrumentTexts& texts, const Box& domain, RunOptions& o);

}  // namespace sph
