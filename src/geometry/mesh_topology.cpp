// Mesh checks and repairs over one sorted list of edge uses: each triangle's three edges keyed by
// their two vertex indices, so that the uses of one edge lie side by side.
#include "geometry/mesh_topology.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <numeric>
#include <vector>

#include "common/errors.h"

namespace sph {
namespace {

struct EdgeUse {
    std::uint64_t key;  // the lower vertex index in the high half, the higher in the low half
    int triangle;
    int corner;      // the edge runs from corner to corner + 1
    bool ascending;  // it runs from the lower vertex index to the higher
};

std::vector<EdgeUse> sorted_edge_uses(const TriangleMesh& mesh) {
    std::vector<EdgeUse> uses;
    uses.reserve(mesh.triangles.size() * 3);
    for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
        for (int k = 0; k < 3; ++k) {
            const int a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
            const auto lo = static_cast<std::uint32_t>(std::min(a, b));
            const auto hi = static_cast<std::uint32_t>(std::max(a, b));
            uses.push_back({(std::uint64_t{lo} << 32) | hi, t, k, a < b});
        }
    }
    std::sort(uses.begin(), uses.end(), [](const EdgeUse& x, const EdgeUse& y) {
        return x.key < y.key || (x.key == y.key && x.triangle < y.triangle);
    });
    return uses;
}

// Calls visit(first, count) for each run of uses of one edge.
template <typename Visit>
void for_each_edge(const std::vector<EdgeUse>& uses, Visit visit) {
    for (std::size_t first = 0; first < uses.size();) {
        std::size_t last = first + 1;
        while (last < uses.size() && uses[last].key == uses[first].key) ++last;
        visit(first, last - first);
        first = last;
    }
}

std::array<int, 2> edge_vertices(const EdgeUse& use) {
    return {static_cast<int>(use.key >> 32), static_cast<int>(use.key & 0xffffffffu)};
}

// The signed volume of the tetrahedron from `apex` to triangle t. Taking the apex near the mesh
// (its first vertex) rather than the origin keeps a small part far from the origin precise.
double tetra_volume(const TriangleMesh& mesh, int t, const Vec3d& apex) {
    const auto from_apex = [&](int k) {
        const Vec3d& v = mesh.vertices[mesh.triangles[t][k]];
        return Vec3d{v[0] - apex[0], v[1] - apex[1], v[2] - apex[2]};
    };
    const Vec3d a = from_apex(0), b = from_apex(1), c = from_apex(2);
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
            a[2] * (b[0] * c[1] - b[1] * c[0])) /
           6.0;
}

std::string format_vertex(const Vec3d& p) {
    char text[96];
    std::snprintf(text, sizeof text, "(%g, %g, %g)", p[0], p[1], p[2]);
    return text;
}

std::string between(const TriangleMesh& mesh, const std::array<int, 2>& edge) {
    return "between vertices " + format_vertex(mesh.vertices[edge[0]]) + " and " +
           format_vertex(mesh.vertices[edge[1]]);
}

// Breadth-first over the manifold edges from each unvisited triangle: which triangles to turn so
// each component runs one way, and each triangle's component.
void orient_components(const TriangleMesh& mesh, std::vector<char>& turn,
                       std::vector<int>& component) {
    const int count = static_cast<int>(mesh.triangles.size());
    // neighbour[3 t + k]: the triangle across edge k of t, and whether both run it the same way.
    std::vector<int> neighbour(3 * count, -1);
    std::vector<char> same_way(3 * count, 0);
    const auto uses = sorted_edge_uses(mesh);
    for_each_edge(uses, [&](std::size_t first, std::size_t n) {
        if (n != 2) return;
        const EdgeUse& x = uses[first];
        const EdgeUse& y = uses[first + 1];
        neighbour[3 * x.triangle + x.corner] = y.triangle;
        neighbour[3 * y.triangle + y.corner] = x.triangle;
        same_way[3 * x.triangle + x.corner] = same_way[3 * y.triangle + y.corner] =
            x.ascending == y.ascending;
    });
    turn.assign(count, 0);
    component.assign(count, -1);
    int components = 0;
    std::deque<int> queue;
    for (int seed = 0; seed < count; ++seed) {
        if (component[seed] >= 0) continue;
        component[seed] = components;
        queue.push_back(seed);
        while (!queue.empty()) {
            const int t = queue.front();
            queue.pop_front();
            for (int k = 0; k < 3; ++k) {
                const int n = neighbour[3 * t + k];
                if (n < 0 || component[n] >= 0) continue;
                component[n] = components;
                // Consistent neighbours run the shared edge in opposite directions.
                turn[n] = static_cast<char>(turn[t] ^ same_way[3 * t + k]);
                queue.push_back(n);
            }
        }
        ++components;
    }
}

}  // namespace

long weld_vertices(TriangleMesh& mesh) {
    const int count = static_cast<int>(mesh.vertices.size());
    std::vector<int> order(count);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return mesh.vertices[a] < mesh.vertices[b]; });
    std::vector<int> merged_index(count, -1);
    std::vector<Vec3d> unique;
    for (int i = 0; i < count; ++i) {
        if (i == 0 || mesh.vertices[order[i]] != mesh.vertices[order[i - 1]])
            unique.push_back(mesh.vertices[order[i]]);
        merged_index[order[i]] = static_cast<int>(unique.size()) - 1;
    }
    // Keep only vertices that triangles use, in the order they are first used.
    std::vector<int> final_index(unique.size(), -1);
    std::vector<Vec3d> used;
    for (auto& tri : mesh.triangles) {
        for (int& corner : tri) {
            int& slot = final_index[merged_index[corner]];
            if (slot < 0) {
                slot = static_cast<int>(used.size());
                used.push_back(unique[merged_index[corner]]);
            }
            corner = slot;
        }
    }
    const long merged = count - static_cast<long>(unique.size());
    mesh.vertices = std::move(used);
    return merged;
}

long drop_degenerate_triangles(TriangleMesh& mesh) {
    const auto degenerate = [&](const std::array<int, 3>& tri) {
        if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0]) return true;
        const Vec3d& a = mesh.vertices[tri[0]];
        const Vec3d& b = mesh.vertices[tri[1]];
        const Vec3d& c = mesh.vertices[tri[2]];
        const Vec3d ab{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        const Vec3d ac{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        return ab[1] * ac[2] - ab[2] * ac[1] == 0.0 && ab[2] * ac[0] - ab[0] * ac[2] == 0.0 &&
               ab[0] * ac[1] - ab[1] * ac[0] == 0.0;
    };
    const auto before = static_cast<long>(mesh.triangles.size());
    mesh.triangles.erase(std::remove_if(mesh.triangles.begin(), mesh.triangles.end(), degenerate),
                         mesh.triangles.end());
    return before - static_cast<long>(mesh.triangles.size());
}

EdgeCensus census_edges(const TriangleMesh& mesh) {
    EdgeCensus census;
    const auto uses = sorted_edge_uses(mesh);
    for_each_edge(uses, [&](std::size_t first, std::size_t n) {
        ++census.edges;
        if (n == 1) {
            if (census.open_edges++ == 0) census.open_example = edge_vertices(uses[first]);
        } else if (n > 2) {
            if (census.nonmanifold_edges++ == 0)
                census.nonmanifold_example = edge_vertices(uses[first]);
        } else if (uses[first].ascending == uses[first + 1].ascending) {
            ++census.inconsistent_edges;
        }
    });
    return census;
}

double signed_volume(const TriangleMesh& mesh) {
    double volume = 0.0;
    if (mesh.vertices.empty()) return volume;
    for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t)
        volume += tetra_volume(mesh, t, mesh.vertices[0]);
    return volume;
}

long repair_orientation(TriangleMesh& mesh) {
    std::vector<char> turn;
    std::vector<int> component;
    orient_components(mesh, turn, component);
    const int count = static_cast<int>(mesh.triangles.size());
    for (int t = 0; t < count; ++t)
        if (turn[t]) std::swap(mesh.triangles[t][1], mesh.triangles[t][2]);
    const int components =
        count > 0 ? *std::max_element(component.begin(), component.end()) + 1 : 0;
    std::vector<double> volume(components, 0.0);
    for (int t = 0; t < count; ++t) volume[component[t]] += tetra_volume(mesh, t, mesh.vertices[0]);
    long turned = 0;
    for (int t = 0; t < count; ++t) {
        if (volume[component[t]] < 0.0) {
            std::swap(mesh.triangles[t][1], mesh.triangles[t][2]);
            turn[t] = static_cast<char>(!turn[t]);
        }
        turned += turn[t];
    }
    return turned;
}

ClosedSolid make_closed_solid(TriangleMesh mesh, const std::string& what) {
    const std::string name = "mesh " + what;
    if (mesh.triangles.empty()) throw OptionError(name + " holds no triangles");
    weld_vertices(mesh);
    const long dropped = drop_degenerate_triangles(mesh);
    if (mesh.triangles.empty())
        throw OptionError(name + " holds no triangles with an area (" + std::to_string(dropped) +
                          " degenerate)");
    const EdgeCensus census = census_edges(mesh);
    if (census.open_edges > 0)
        throw OptionError(name + " is not closed: " + std::to_string(census.open_edges) +
                          " open edges (e.g. " + between(mesh, census.open_example) + ")");
    if (census.nonmanifold_edges > 0)
        throw OptionError(name + " is not a manifold: " + std::to_string(census.nonmanifold_edges) +
                          " edges shared by three or more triangles (e.g. " +
                          between(mesh, census.nonmanifold_example) + ")");
    const long turned = repair_orientation(mesh);
    const EdgeCensus after = census_edges(mesh);
    if (after.inconsistent_edges > 0)
        throw OptionError(name + " cannot be oriented consistently: it is one-sided (" +
                          std::to_string(after.inconsistent_edges) + " edges disagree)");
    std::string note;
    if (dropped > 0) note = std::to_string(dropped) + " triangles without area dropped";
    if (turned > 0) {
        note += note.empty() ? "" : ", ";
        note += std::to_string(turned) + " triangles turned to face outward";
    }
    if (!note.empty()) note = name + ": " + note;
    mesh.source = mesh.source.empty() ? what : mesh.source;
    return ClosedSolid{std::move(mesh), std::move(note)};
}

}  // namespace sph
