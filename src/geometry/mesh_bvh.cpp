// The triangle BVH: a median-split tree of boxes; nearest points by Ericson's closest point on a
// triangle ("Real-Time Collision Detection", 5.1.5) with the feature it lies on, and line
// crossings by a 2-D inside test made watertight by evaluating each edge the same way from both
// of its triangles.
#include "geometry/mesh_bvh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace sph {
namespace {

constexpr int kLeafSize = 4;
constexpr int kStackDepth = 128;  // a median split is balanced: depth ~ log2(triangles)
constexpr double kTieRelative = 1e-9;
constexpr double kTieAbsolute = 1e-15;
// Faces whose normals lie within 30 degrees of each other face one way (a curved surface's
// facets); only faces further apart make an edge whose diagonal sees both.
const double kTieCosine = std::cos(30.0 * 3.14159265358979323846 / 180.0);

Vec3d operator-(const Vec3d& a, const Vec3d& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec3d operator+(const Vec3d& a, const Vec3d& b) {
    return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
Vec3d operator*(const Vec3d& a, double s) {
    return {a[0] * s, a[1] * s, a[2] * s};
}
double dot(const Vec3d& a, const Vec3d& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Vec3d cross(const Vec3d& a, const Vec3d& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec3d normalized(const Vec3d& a) {
    const double length = std::sqrt(dot(a, a));
    return length > 0.0 ? a * (1.0 / length) : Vec3d{0, 0, 0};
}

// Where on a triangle its closest point lies: the face, an edge (ab, bc, ca) or a vertex.
enum class Feature { face, edge, vertex };
struct ClosestPoint {
    Vec3d point;
    Feature feature;
    int index;  // the edge (0 ab, 1 bc, 2 ca) or the vertex (0 a, 1 b, 2 c)
};

ClosestPoint closest_on_segment(const Vec3d& p, const Vec3d& a, const Vec3d& b, int edge) {
    const Vec3d ab = b - a;
    const double length2 = dot(ab, ab);
    const double s = length2 > 0.0 ? std::clamp(dot(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    if (s <= 0.0) return {a, Feature::vertex, edge};
    if (s >= 1.0) return {b, Feature::vertex, (edge + 1) % 3};
    return {a + ab * s, Feature::edge, edge};
}

// A triangle without area has no face region: the nearest of its three edges.
ClosestPoint closest_on_degenerate(const Vec3d& p, const Vec3d& a, const Vec3d& b, const Vec3d& c) {
    const Vec3d corners[3] = {a, b, c};
    ClosestPoint best{a, Feature::vertex, 0};
    double best_d2 = std::numeric_limits<double>::infinity();
    for (int edge = 0; edge < 3; ++edge) {
        const ClosestPoint q = closest_on_segment(p, corners[edge], corners[(edge + 1) % 3], edge);
        const double d2 = dot(p - q.point, p - q.point);
        if (d2 < best_d2) best = q, best_d2 = d2;
    }
    return best;
}

// Ericson's Voronoi-region walk. The comparisons are not strict towards the edges and vertices,
// so the face region is the triangle's open interior: on_face means "not on an edge".
ClosestPoint closest_on_triangle(const Vec3d& p, const Vec3d& a, const Vec3d& b, const Vec3d& c) {
    const Vec3d ab = b - a, ac = c - a, ap = p - a;
    const double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) return {a, Feature::vertex, 0};
    const Vec3d bp = p - b;
    const double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) return {b, Feature::vertex, 1};
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 && d1 - d3 > 0.0)
        return {a + ab * (d1 / (d1 - d3)), Feature::edge, 0};
    const Vec3d cp = p - c;
    const double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) return {c, Feature::vertex, 2};
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 && d2 - d6 > 0.0)
        return {a + ac * (d2 / (d2 - d6)), Feature::edge, 2};
    const double va = d3 * d6 - d5 * d4;
    const double along_bc = d4 - d3, along_cb = d5 - d6;
    if (va <= 0.0 && along_bc >= 0.0 && along_cb >= 0.0 && along_bc + along_cb > 0.0)
        return {b + (c - b) * (along_bc / (along_bc + along_cb)), Feature::edge, 1};
    const double sum = va + vb + vc;
    if (!(sum > 0.0)) return closest_on_degenerate(p, a, b, c);
    return {a + ab * (vb / sum) + ac * (vc / sum), Feature::face, 0};
}

double box_distance2(const Box& box, const Vec3d& p) {
    double d2 = 0.0;
    for (int axis = 0; axis < 3; ++axis) {
        const double out = std::max({box.lo[axis] - p[axis], 0.0, p[axis] - box.hi[axis]});
        d2 += out * out;
    }
    return d2;
}

void grow(Box& box, const Vec3d& p) {
    for (int axis = 0; axis < 3; ++axis) {
        box.lo[axis] = std::min(box.lo[axis], p[axis]);
        box.hi[axis] = std::max(box.hi[axis], p[axis]);
    }
}

Box empty_box() {
    constexpr double big = std::numeric_limits<double>::infinity();
    return Box{{big, big, big}, {-big, -big, -big}};
}

// The side of the 2-D line (p, r) that q lies on: its signed doubled area, and its sign. The
// endpoints are taken in a canonical order, so the two triangles sharing an edge get
// bit-identical values of opposite sign; a q exactly on the line is moved off it by an
// infinitesimal (eps, eps^2) (simulation of simplicity), so a line through a shared edge or
// vertex falls inside exactly one of the triangles around it. The sign is 0 only when p and r
// coincide in the plane (a triangle seen edge-on), which no line crosses.
struct Side {
    double value;
    int sign;
};
Side edge_side(const double p[2], const double r[2], double qu, double qv) {
    const bool swapped = r[0] < p[0] || (r[0] == p[0] && r[1] < p[1]);
    const double* s = swapped ? r : p;
    const double* e = swapped ? p : r;
    const double du = e[0] - s[0], dv = e[1] - s[1];
    const double value = du * (qv - s[1]) - dv * (qu - s[0]);
    int sign = value > 0.0 ? 1 : value < 0.0 ? -1 : 0;
    if (sign == 0) sign = dv != 0.0 ? (dv > 0.0 ? -1 : 1) : (du > 0.0 ? 1 : 0);
    return swapped ? Side{-value, -sign} : Side{value, sign};
}

std::uint64_t edge_key(int a, int b) {
    const auto lo = static_cast<std::uint32_t>(std::min(a, b));
    const auto hi = static_cast<std::uint32_t>(std::max(a, b));
    return (std::uint64_t{lo} << 32) | hi;
}

double corner_angle(const Vec3d& at, const Vec3d& to1, const Vec3d& to2) {
    const Vec3d e1 = normalized(to1 - at), e2 = normalized(to2 - at);
    return std::acos(std::clamp(dot(e1, e2), -1.0, 1.0));
}

}  // namespace

TriangleBvh::TriangleBvh(TriangleMesh mesh) : mesh_(std::move(mesh)) {
    const auto& vertices = mesh_.vertices;
    const auto& triangles = mesh_.triangles;
    const int count = static_cast<int>(triangles.size());
    face_normals_.resize(count);
    vertex_pseudo_.assign(vertices.size(), Vec3d{0, 0, 0});
    std::unordered_map<std::uint64_t, Vec3d> edge_sums;
    std::vector<Vec3d> centroids(count);
    for (int t = 0; t < count; ++t) {
        const Vec3d& a = vertices[triangles[t][0]];
        const Vec3d& b = vertices[triangles[t][1]];
        const Vec3d& c = vertices[triangles[t][2]];
        const Vec3d n = normalized(cross(b - a, c - a));
        face_normals_[t] = n;
        centroids[t] = (a + b + c) * (1.0 / 3.0);
        const Vec3d corners[3] = {a, b, c};
        for (int k = 0; k < 3; ++k) {
            const double angle =
                corner_angle(corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
            auto& sum = vertex_pseudo_[triangles[t][k]];
            sum = sum + n * angle;
            auto& edge_sum = edge_sums[edge_key(triangles[t][k], triangles[t][(k + 1) % 3])];
            edge_sum = edge_sum + n;
        }
    }
    edge_pseudo_.resize(count);
    for (int t = 0; t < count; ++t)
        for (int k = 0; k < 3; ++k)
            edge_pseudo_[t][k] = edge_sums[edge_key(triangles[t][k], triangles[t][(k + 1) % 3])];
    order_.resize(count);
    for (int t = 0; t < count; ++t) order_[t] = t;
    if (count > 0) build(0, count, centroids);
}

int TriangleBvh::build(int begin, int end, const std::vector<Vec3d>& centroids) {
    const int index = static_cast<int>(nodes_.size());
    nodes_.emplace_back();
    Box box = empty_box(), centre_box = empty_box();
    for (int i = begin; i < end; ++i) {
        for (int k = 0; k < 3; ++k) grow(box, mesh_.vertices[mesh_.triangles[order_[i]][k]]);
        grow(centre_box, centroids[order_[i]]);
    }
    nodes_[index].box = box;
    if (end - begin <= kLeafSize) {
        nodes_[index].first = begin;
        nodes_[index].count = end - begin;
        return index;
    }
    int axis = 0;
    for (int k = 1; k < 3; ++k)
        if (centre_box.hi[k] - centre_box.lo[k] > centre_box.hi[axis] - centre_box.lo[axis])
            axis = k;
    const int middle = begin + (end - begin) / 2;
    std::nth_element(order_.begin() + begin, order_.begin() + middle, order_.begin() + end,
                     [&](int a, int b) { return centroids[a][axis] < centroids[b][axis]; });
    build(begin, middle, centroids);
    const int second = build(middle, end, centroids);
    nodes_[index].first = second;
    return index;
}

Box TriangleBvh::bounds() const {
    if (nodes_.empty()) return Box{{0, 0, 0}, {0, 0, 0}};
    return nodes_[0].box;
}

// The squared distance to the nearest triangle, nearer child first so pruning bites early.
double TriangleBvh::nearest_distance(const Vec3d& p, double max_distance, int& triangle) const {
    double best2 = max_distance * max_distance;
    triangle = -1;
    if (nodes_.empty()) return best2;
    int stack[kStackDepth];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node& node = nodes_[stack[--top]];
        if (box_distance2(node.box, p) > best2) continue;
        if (node.count > 0) {
            for (int i = node.first; i < node.first + node.count; ++i) {
                const auto& tri = mesh_.triangles[order_[i]];
                const ClosestPoint q = closest_on_triangle(
                    p, mesh_.vertices[tri[0]], mesh_.vertices[tri[1]], mesh_.vertices[tri[2]]);
                const double d2 = dot(p - q.point, p - q.point);
                if (d2 < best2 || (triangle < 0 && d2 <= best2)) best2 = d2, triangle = order_[i];
            }
            continue;
        }
        const int first = static_cast<int>(&node - nodes_.data()) + 1, second = node.first;
        const bool first_nearer =
            box_distance2(nodes_[first].box, p) <= box_distance2(nodes_[second].box, p);
        stack[top++] = first_nearer ? second : first;  // the nearer is popped first
        stack[top++] = first_nearer ? first : second;
    }
    return best2;
}

// The nearest triangles, one per direction, of other directions than the nearest triangle's (more
// than 30 degrees apart) no farther than `within`, the two nearest kept: the faces a point near
// an edge's or a corner's diagonal has on the other side of it. A curved surface's neighbouring
// facets, a few degrees apart, are one direction and never count.
void TriangleBvh::collect_ties(const Vec3d& p, double within, Nearest& found) const {
    const auto same_direction = [](const Vec3d& a, const Vec3d& b) {
        return dot(a, b) > kTieCosine;
    };
    const Vec3d& own = face_normals_[found.triangle];
    const double within2 = within * within;
    int stack[kStackDepth];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node& node = nodes_[stack[--top]];
        if (box_distance2(node.box, p) > within2) continue;
        if (node.count == 0) {
            stack[top++] = node.first;
            stack[top++] = static_cast<int>(&node - nodes_.data()) + 1;
            continue;
        }
        for (int i = node.first; i < node.first + node.count; ++i) {
            const int t = order_[i];
            const Vec3d& normal = face_normals_[t];
            if (same_direction(normal, own)) continue;
            const auto& tri = mesh_.triangles[t];
            const ClosestPoint q = closest_on_triangle(
                p, mesh_.vertices[tri[0]], mesh_.vertices[tri[1]], mesh_.vertices[tri[2]]);
            const double d = std::sqrt(dot(p - q.point, p - q.point));
            if (d > within) continue;
            add_tie(normal, d, found);
        }
    }
}

// Keeps (normal, distance) among found's ties: the nearer of two of one direction, the kMaxTies
// nearest directions, sorted by distance.
void TriangleBvh::add_tie(const Vec3d& normal, double distance, Nearest& found) {
    int k = 0;
    while (k < found.ties && dot(found.tie_normals[k], normal) <= kTieCosine) ++k;
    if (k < found.ties) {  // a direction already kept: the nearer stays
        if (distance >= found.tie_distances[k]) return;
        for (int m = k; m + 1 < found.ties; ++m) {
            found.tie_normals[m] = found.tie_normals[m + 1];
            found.tie_distances[m] = found.tie_distances[m + 1];
        }
        --found.ties;
    }
    int at = found.ties;
    while (at > 0 && found.tie_distances[at - 1] > distance) --at;
    constexpr int kMax = Nearest::kMaxTies;
    if (at >= kMax) return;
    for (int m = std::min(found.ties, kMax - 1); m > at; --m) {
        found.tie_normals[m] = found.tie_normals[m - 1];
        found.tie_distances[m] = found.tie_distances[m - 1];
    }
    found.tie_normals[at] = normal;
    found.tie_distances[at] = distance;
    found.ties = std::min(found.ties + 1, kMax);
}

TriangleBvh::Nearest TriangleBvh::nearest(const Vec3d& p, double max_distance,
                                          double tie_within) const {
    Nearest found;
    int triangle = -1;
    const double best2 = nearest_distance(p, max_distance, triangle);
    if (triangle < 0) {
        found.distance = std::numeric_limits<double>::infinity();
        return found;
    }
    const auto& tri = mesh_.triangles[triangle];
    const ClosestPoint q = closest_on_triangle(p, mesh_.vertices[tri[0]], mesh_.vertices[tri[1]],
                                               mesh_.vertices[tri[2]]);
    found.distance = std::sqrt(best2);
    found.point = q.point;
    found.triangle = triangle;
    found.on_face = q.feature == Feature::face;
    if (q.feature == Feature::face) found.pseudo_normal = face_normals_[triangle];
    if (q.feature == Feature::edge) found.pseudo_normal = edge_pseudo_[triangle][q.index];
    if (q.feature == Feature::vertex) found.pseudo_normal = vertex_pseudo_[tri[q.index]];
    const double exact = found.distance * (1.0 + kTieRelative) + kTieAbsolute;
    collect_ties(p, std::max(exact, found.distance + tie_within), found);
    return found;
}

void TriangleBvh::crossings(const Vec3d& origin, int axis, std::vector<double>& t) const {
    t.clear();
    if (nodes_.empty()) return;
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    const double qu = origin[u], qv = origin[v];
    int stack[kStackDepth];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node& node = nodes_[stack[--top]];
        // Inclusive: a line along a box's side may still cross (by the perturbation) inside it.
        if (qu < node.box.lo[u] || qu > node.box.hi[u] || qv < node.box.lo[v] ||
            qv > node.box.hi[v])
            continue;
        if (node.count == 0) {
            stack[top++] = node.first;
            stack[top++] = static_cast<int>(&node - nodes_.data()) + 1;
            continue;
        }
        for (int i = node.first; i < node.first + node.count; ++i) {
            const auto& tri = mesh_.triangles[order_[i]];
            const Vec3d* corner[3] = {&mesh_.vertices[tri[0]], &mesh_.vertices[tri[1]],
                                      &mesh_.vertices[tri[2]]};
            double flat[3][2];
            for (int k = 0; k < 3; ++k) flat[k][0] = (*corner[k])[u], flat[k][1] = (*corner[k])[v];
            // side[k]: q against the edge opposite corner k, that corner's barycentric weight.
            const Side side[3] = {edge_side(flat[1], flat[2], qu, qv),
                                  edge_side(flat[2], flat[0], qu, qv),
                                  edge_side(flat[0], flat[1], qu, qv)};
            if (side[0].sign == 0 || side[0].sign != side[1].sign || side[1].sign != side[2].sign)
                continue;
            const double total = side[0].value + side[1].value + side[2].value;
            double along = 0.0;
            for (int k = 0; k < 3; ++k)
                along += (total != 0.0 ? side[k].value / total : 1.0 / 3.0) * (*corner[k])[axis];
            t.push_back(along - origin[axis]);
        }
    }
    std::sort(t.begin(), t.end());
}

}  // namespace sph
