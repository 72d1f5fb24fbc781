// Moving and floating bodies across MPI ranks: the case program under mpirun, two ranks of one
// CPU device each, writes bodies.csv and gauges.csv with the same bytes as one process driving two
// devices (a floating body's loads are summed across the ranks at each stage, a gate's at each
// row), balanced, under mDBC.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpi_support.h"
#include "test_support.h"

namespace sph {
namespace {

Job run_case(int ranks, const std::string& case_file, const std::string& out) {
    std::string command = ranks > 0 ? mpirun(ranks) : std::string();
    command += std::string(SPH_CASE_EXE) + " --case " + case_file +
               " --backend cpu --threads 1 --dp 0.02 --t-end 0.1 --gauge-every 0.02 --no-frames"
               " --boundary mdbc --lb on --output-dir " +
               out + " --devices " + (ranks > 0 ? "1" : "2");
    return run_command(command);
}

TEST(MpiBodies, TwoRanksWriteTheSameBodiesCsvAsOneProcess) {
    testing::TempDir dir("mpi-bodies");
    for (const char* name : {"floating_box", "gate_release"}) {
        const std::string file = std::string(SPH_CASES_DIR) + "/" + name + ".yaml";
        const std::string alone = dir.path() + "/" + name + "-alone",
                          ranks = dir.path() + "/" + name + "-ranks";
        const Job one = run_case(0, file, alone);
        ASSERT_EQ(one.code, 0) << one.output;
        const Job two = run_case(2, file, ranks);
        ASSERT_EQ(two.code, 0) << two.output;
        for (const char* csv : {"/bodies.csv", "/gauges.csv"}) {
            EXPECT_EQ(testing::read_text(alone + csv), testing::read_text(ranks + csv))
                << name << csv;
        }
    }
}

}  // namespace
}  // namespace sph
