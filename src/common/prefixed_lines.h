// An output stream whose lines go whole, each prefixed, to a stream shared with other threads
// under a lock: the logs of branches that run at once stay readable, line by line.
#pragma once

#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>

namespace sph {

class PrefixedLines : public std::streambuf {
public:
    PrefixedLines(std::ostream& shared, std::mutex& lock, std::string prefix)
        : shared_(shared), lock_(lock), prefix_(std::move(prefix)) {}
    ~PrefixedLines() override { flush_line(); }

protected:
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
        const char ch = traits_type::to_char_type(c);
        // A status line redrawn with '\r' is cut there: only its last state is a line.
        if (ch == '\r') {
            line_.clear();
        } else {
            line_ += ch;
            if (ch == '\n') flush_line();
        }
        return c;
    }

private:
    void flush_line() {
        if (line_.empty()) return;
        if (line_.back() != '\n') line_ += '\n';
        std::lock_guard<std::mutex> hold(lock_);
        shared_ << prefix_ << line_ << std::flush;
        line_.clear();
    }

    std::ostream& shared_;
    std::mutex& lock_;
    std::string prefix_;
    std::string line_;
};

}  // namespace sph
