# Kernel tests (Wendland kernel, cell grid, neighbour list through the CPU launchers).
sph_add_test(test_kernels ${CMAKE_CURRENT_LIST_DIR}/test_kernels.cpp)
