// Wave-maker theory (bodies/wave_maker.h): the dispersion relation's root in its limits and in
// between, Biesel's transfer functions against their textbook forms and limits, the regular
// piston's law and its refusals, and Goring's solitary-wave paddle against his closed form.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "bodies/wave_maker.h"
#include "body_motion.h"

namespace sph {
namespace {

constexpr double kG = 9.81;

// The message of the std::invalid_argument `f` throws ("" when it throws none).
std::string refusal(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

// k of omega^2 = g k tanh(k d) by plain bisection: slow, but independent of the library's Newton.
double bisected_wave_number(double period, double depth) {
    const double omega2 = std::pow(2.0 * M_PI / period, 2);
    double lo = 0.0, hi = 1.0;
    while (kG * hi * std::tanh(hi * depth) < omega2) hi *= 2.0;
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (kG * mid * std::tanh(mid * depth) < omega2 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

// The transfer functions as Dean & Dalrymple write them, for moderate kd only (they overflow).
double textbook_piston(double kd) {
    return 2.0 * (std::cosh(2 * kd) - 1.0) / (std::sinh(2 * kd) + 2 * kd);
}
double textbook_flap(double kd) {
    return 4.0 * std::sinh(kd) / kd * (kd * std::sinh(kd) - std::cosh(kd) + 1.0) /
           (std::sinh(2 * kd) + 2 * kd);
}

TEST(WaveNumber, DeepWaterTendsToOmegaSquaredOverG) {
    const double omega = 2.0 * M_PI / 1.0;
    EXPECT_NEAR(wave_number(1.0, 100.0) / (omega * omega / kG), 1.0, 1e-13);  // kd ~ 400
}

TEST(WaveNumber, ShallowWaterTendsToOmegaOverSqrtGd) {
    const double k0 = (2.0 * M_PI / 100.0) / std::sqrt(kG * 1.0);  // k0 d ~ 0.02
    const double k = wave_number(100.0, 1.0);
    EXPECT_NEAR(k / k0, 1.0, 1e-4);
    // The first correction, tanh x ~ x - x^3/3: k ~ k0 (1 + (k0 d)^2 / 6).
    EXPECT_NEAR(k / (k0 * (1.0 + k0 * k0 / 6.0)), 1.0, 1e-8);
}

TEST(WaveNumber, SolvesTheRelationToRoundOffFromDeepToShallow) {
    for (double period : {0.3, 1.0, 2.0, 7.5, 30.0, 300.0}) {
        for (double depth : {0.01, 0.4, 3.0, 50.0, 4000.0}) {
            const double omega2 = std::pow(2.0 * M_PI / period, 2);
            const double k = wave_number(period, depth);
            EXPECT_LT(std::fabs(kG * k * std::tanh(k * depth) - omega2) / omega2, 1e-12)
                << "T " << period << " d " << depth;
        }
    }
    EXPECT_NEAR(wave_number(2.0, 1.0) / bisected_wave_number(2.0, 1.0), 1.0, 1e-12);
}

TEST(WaveNumber, RefusesNonPositiveOrNonFiniteInputs) {
    EXPECT_NE(refusal([] { wave_number(0.0, 1.0); }).find("period"), std::string::npos);
    EXPECT_NE(refusal([] { wave_number(-1.0, 1.0); }).find("-1"), std::string::npos);
    EXPECT_NE(refusal([] { wave_number(std::nan(""), 1.0); }).find("period"), std::string::npos);
    EXPECT_NE(refusal([] { wave_number(1.0, 0.0); }).find("depth"), std::string::npos);
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_NE(refusal([inf] { wave_number(1.0, inf); }).find("depth"), std::string::npos);
    EXPECT_NE(refusal([] { wave_number(1.0, 1.0, 0.0); }).find("gravity"), std::string::npos);
}

TEST(PistonTransfer, ShallowWaterTendsToKd) {
    EXPECT_NEAR(piston_height_to_stroke(0.05) / 0.05, 1.0, 0.01);
    EXPECT_NEAR(piston_height_to_stroke(1e-6) / 1e-6, 1.0, 1e-9);
    EXPECT_NEAR(piston_height_to_stroke(1e-200) / 1e-200, 1.0, 1e-12);
}

TEST(PistonTransfer, DeepWaterTendsToTwoWithoutOverflow) {
    EXPECT_NEAR(piston_height_to_stroke(20.0), 2.0, 1e-12);
    EXPECT_DOUBLE_EQ(piston_height_to_stroke(1000.0), 2.0);  // cosh(2000) is inf
}

TEST(PistonTransfer, MatchesTheTextbookFormAtMidDepth) {
    for (double kd : {0.1, 0.7, 1.5, 4.0}) {
        EXPECT_NEAR(piston_height_to_stroke(kd) / textbook_piston(kd), 1.0, 1e-13) << kd;
    }
    // T = 2 s in 1 m of water (kd ~ 1.1), everything computed here.
    const double kd = bisected_wave_number(2.0, 1.0) * 1.0;
    EXPECT_NEAR(piston_stroke(0.1, 2.0, 1.0), 0.1 / textbook_piston(kd), 1e-11);
}

TEST(FlapTransfer, ShallowWaterTendsToHalfKd) {
    EXPECT_NEAR(flap_height_to_stroke(0.05) / 0.025, 1.0, 0.01);
    EXPECT_NEAR(flap_height_to_stroke(1e-6) / 0.5e-6, 1.0, 1e-9);
    EXPECT_NEAR(flap_height_to_stroke(1e-200) / 0.5e-200, 1.0, 1e-12);  // no underflow
}

TEST(FlapTransfer, DeepWaterTendsToTwoLikeTwoTimesOneMinusOneOverKd) {
    // 4 sinh x / x (x sinh x - cosh x + 1) / (sinh 2x + 2x) -> 2 (x - 1) / x for large x.
    EXPECT_NEAR(flap_height_to_stroke(50.0), 2.0 * 49.0 / 50.0, 1e-12);
    EXPECT_NEAR(flap_height_to_stroke(1e5), 2.0, 1e-4);  // sinh(1e5) is inf
}

TEST(FlapTransfer, MatchesTheTextbookFormAndNeedsMoreStrokeThanAPiston) {
    for (double kd : {0.1, 0.7, 1.5, 4.0}) {
        EXPECT_NEAR(flap_height_to_stroke(kd) / textbook_flap(kd), 1.0, 1e-12) << kd;
        EXPECT_LT(flap_height_to_stroke(kd), piston_height_to_stroke(kd)) << kd;
    }
    const double kd = bisected_wave_number(2.0, 1.0) * 1.0;
    EXPECT_NEAR(flap_stroke(0.1, 2.0, 1.0), 0.1 / textbook_flap(kd), 1e-11);
}

TEST(RegularPistonLaw, IsASinusoidOfHalfTheStrokeOnItsAxis) {
    const double height = 0.05, period = 1.2, depth = 0.4;
    const BodyLaw law = regular_piston_law(height, period, depth, 1, 0.5);
    const double kd = bisected_wave_number(period, depth) * depth;
    const double amplitude = 0.5 * height / textbook_piston(kd);
    EXPECT_EQ(law.kind, MotionKind::kSinusoid);
    EXPECT_NEAR(law.vector[1], amplitude, 1e-12);
    EXPECT_EQ(law.vector[0], 0.0);
    EXPECT_EQ(law.vector[2], 0.0);
    EXPECT_EQ(law.period, period);
    EXPECT_DOUBLE_EQ(law.ramp, 2.0 * period);
    EXPECT_EQ(law.start, 0.5);
    // Once ramped in, a quarter period on, the paddle is at +amplitude.
    const BodyState s = body_state(law, nullptr, 0.5 + 2.0 * period + 0.25 * period);
    EXPECT_NEAR(s.displacement[1], amplitude, 1e-12);
    EXPECT_EQ(regular_piston_law(height, period, depth, 0, 0.0, 0.0).ramp, 0.0);
}

TEST(RegularPistonLaw, RefusesABreakingWaveAndBadValues) {
    const double period = 1.2, depth = 0.4;
    const double k = bisected_wave_number(period, depth);
    const double limit = 0.142 * (2.0 * M_PI / k) * std::tanh(k * depth);
    EXPECT_NO_THROW(regular_piston_law(0.99 * limit, period, depth, 0, 0.0));
    const std::string breaking =
        refusal([&] { regular_piston_law(1.01 * limit, period, depth, 0, 0.0); });
    EXPECT_NE(breaking.find("breaks"), std::string::npos) << breaking;
    EXPECT_NE(breaking.find("Miche"), std::string::npos) << breaking;
    EXPECT_NE(refusal([] { regular_piston_law(0.05, 0.0, 0.4, 0, 0.0); }).find("period"),
              std::string::npos);
    EXPECT_NE(refusal([] { regular_piston_law(0.0, 1.2, 0.4, 0, 0.0); }).find("height"),
              std::string::npos);
    EXPECT_NE(refusal([] { regular_piston_law(0.05, 1.2, 0.4, 3, 0.0); }).find("axis"),
              std::string::npos);
    EXPECT_NE(refusal([] { regular_piston_law(0.05, 1.2, 0.4, -1, 0.0); }).find("-1"),
              std::string::npos);
    EXPECT_NE(refusal([] { regular_piston_law(0.05, 1.2, 0.4, 0, 0.0, -1.0); }).find("ramp"),
              std::string::npos);
}

// Goring's solitary wave in 0.5 m of water, H/d = 0.2, on axis 0 from t = 1.5 s.
struct Solitary : ::testing::Test {
    const double height = 0.1, depth = 0.5, start = 1.5;
    const double kappa = std::sqrt(3.0 * height / (4.0 * std::pow(depth, 3)));
    const double c = std::sqrt(kG * (depth + height));
    const std::vector<std::array<double, 4>> series =
        solitary_piston_series(height, depth, 0, start);

    double speed(std::size_t i) const {
        return (series[i + 1][1] - series[i][1]) / (series[i + 1][0] - series[i][0]);
    }
};

TEST_F(Solitary, StartsAtRestAtStartAndTimesIncrease) {
    ASSERT_GE(series.size(), 400u);
    EXPECT_EQ(series.front(), (std::array<double, 4>{start, 0.0, 0.0, 0.0}));
    for (std::size_t i = 1; i < series.size(); ++i) {
        ASSERT_GT(series[i][0], series[i - 1][0]) << i;
        ASSERT_GE(series[i][1], series[i - 1][1]) << i;  // a piston that only pushes
        ASSERT_EQ(series[i][2], 0.0);
        ASSERT_EQ(series[i][3], 0.0);
    }
    const double peak = c * height / (depth + height);
    EXPECT_LT(speed(0), 1e-5 * peak);
    EXPECT_LT(speed(series.size() - 2), 1e-5 * peak);
    EXPECT_GE(series.back()[0], start + solitary_piston(height, depth).duration);
}

TEST_F(Solitary, StrokeIsSqrtOf16HdOver3) {
    const double stroke = std::sqrt(16.0 * height * depth / 3.0);
    EXPECT_NEAR(series.back()[1] / stroke, 1.0, 0.01);
    EXPECT_NEAR(series.back()[1] / stroke, 1.0, 1e-5);  // the lead-in and tail lose ~1e-6
    EXPECT_NEAR(solitary_piston(height, depth).stroke, stroke, 1e-12);
}

TEST_F(Solitary, PeakSpeedIsCHOverDPlusH) {
    double fastest = 0.0;
    for (std::size_t i = 0; i + 1 < series.size(); ++i) fastest = std::max(fastest, speed(i));
    EXPECT_NEAR(fastest / (c * height / (depth + height)), 1.0, 0.01);
}

TEST_F(Solitary, FollowsGoringsClosedForm) {
    // X = H / (kappa d) (tanh theta - tanh theta0), theta = kappa (c tau - X - x0): the RK4
    // trajectory must satisfy the implicit solution at every sample.
    const double x0 = solitary_piston(height, depth).offset;
    for (const auto& s : series) {
        const double theta = kappa * (c * (s[0] - start) - s[1] - x0);
        const double x = height / (kappa * depth) * (std::tanh(theta) + std::tanh(kappa * x0));
        ASSERT_NEAR(s[1], x, 1e-10) << "t " << s[0];
    }
}

TEST_F(Solitary, TakesAGivenSampleIntervalAndAxis) {
    const auto z = solitary_piston_series(height, depth, 2, start, kG, 0.01);
    for (std::size_t i = 0; i < z.size(); ++i) {
        ASSERT_NEAR(z[i][0], start + 0.01 * double(i), 1e-12);
        ASSERT_EQ(z[i][1], 0.0);
    }
    EXPECT_NEAR(z.back()[3], series.back()[1], 1e-9);
}

TEST_F(Solitary, RefusesTooHighAWaveAndBadValues) {
    const std::string high = refusal([] { solitary_piston_series(0.35, 0.5, 0, 0.0); });
    EXPECT_NE(high.find("0.7"), std::string::npos) << high;
    EXPECT_NO_THROW(solitary_piston_series(0.3, 0.5, 0, 0.0));
    EXPECT_NE(refusal([] { solitary_piston_series(0.0, 0.5, 0, 0.0); }).find("height"),
              std::string::npos);
    EXPECT_NE(refusal([] { solitary_piston_series(0.1, -0.5, 0, 0.0); }).find("depth"),
              std::string::npos);
    EXPECT_NE(refusal([] { solitary_piston_series(0.1, 0.5, 3, 0.0); }).find("axis"),
              std::string::npos);
    EXPECT_NE(refusal([] { solitary_piston_series(0.1, 0.5, 0, 0.0, kG, 1e3); }).find("longer"),
              std::string::npos);
    EXPECT_NE(refusal([] { solitary_piston_series(0.1, 0.5, 0, 0.0, kG, -0.1); }).find("sample"),
              std::string::npos);
}

}  // namespace
}  // namespace sph
