#include "checkpoint/checkpoint_folder.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "checkpoint/checkpoint_file.h"
#include "sectioned_file.h"

namespace fs = std::filesystem;

namespace sph {

namespace {

constexpr const char* kPrefix = "checkpoint_";
constexpr const char* kSuffix = ".chk";

// checkpoint_0000001230.chk: the iteration padded, so that names sort as iterations do.
std::string name_for(long iteration) {
    char name[64];
    std::snprintf(name, sizeof name, "%s%010ld%s", kPrefix, iteration, kSuffix);
    return name;
}

bool is_checkpoint_name(const std::string& name) {
    const std::string prefix = kPrefix, suffix = kSuffix;
    return name.size() == prefix.size() + 10 + suffix.size() && name.rfind(prefix, 0) == 0 &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
           std::all_of(name.begin() + prefix.size(), name.end() - suffix.size(), ::isdigit);
}

}  // namespace

CheckpointFolder::CheckpointFolder(std::string dir) : dir_(std::move(dir)) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_)) {
        throw std::runtime_error("cannot create checkpoint folder '" + dir_ + "'" +
                                 (ec ? ": " + ec.message() : std::string()));
    }
}

std::string CheckpointFolder::write(const RunState& state) {
    const std::string path = (fs::path(dir_) / name_for(state.iteration)).string();
    write_checkpoint(path, state);
    const std::vector<std::string> all = checkpoints_in(dir_);
    for (std::size_t k = 0; k + 2 < all.size(); ++k) {
        std::error_code ignored;  // an old checkpoint that stays is harmless
        fs::remove(all[k], ignored);
    }
    return path;
}

std::vector<std::string> checkpoints_in(const std::string& dir) {
    std::vector<std::string> found;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return found;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && is_checkpoint_name(name))
            found.push_back(entry.path().string());
    }
    std::sort(found.begin(), found.end());
    return found;
}

LatestCheckpoint read_latest_checkpoint(const std::string& dir, std::ostream& warnings) {
    const std::vector<std::string> all = checkpoints_in(dir);
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
        try {
            return LatestCheckpoint{*it, read_checkpoint(*it)};
        } catch (const std::exception& e) {
            warnings << "warning: passing over checkpoint " << *it << ": " << e.what() << "\n";
        }
    }
    throw std::runtime_error("--restart latest: no checkpoint that verifies in '" + dir + "'");
}

std::string latest_checkpoint(const std::string& dir, std::ostream& warnings) {
    return read_latest_checkpoint(dir, warnings).path;
}

}  // namespace sph
