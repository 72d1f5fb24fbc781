// A problem option that is a length in metres and must be positive.
#pragma once

#include <boost/program_options.hpp>

#include <sstream>

namespace sph {

// A value for options_description::add_options: shows `*target` as its default and stores the
// parsed value there; a value that is not positive fails the parse with a message naming --name.
inline boost::program_options::typed_value<double>* positive_length(double* target,
                                                                    const char* name) {
    std::ostringstream text;
    text << *target;
    return boost::program_options::value<double>()
        ->default_value(*target, text.str())
        ->notifier([target, name](double v) {
            if (!(v > 0.0)) {
                std::ostringstream msg;
                msg << "--" << name << " must be positive (got " << v << ")";
                throw boost::program_options::error(msg.str());
            }
            *target = v;
        });
}

}  // namespace sph
