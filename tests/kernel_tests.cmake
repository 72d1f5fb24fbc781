# Kernel tests: the host-side bodies (Wendland kernel, cell grid), and the launchers of every back
# end chained as the devices chain them (tests/kernels/kernel_chain.h): neighbour list, wall forces,
# mDBC, and Forces from the cells against Forces from the list.
set(kernel_chain_sources ${CMAKE_CURRENT_LIST_DIR}/kernels/kernel_chain.cpp)
if(SPH_HAVE_CUDA)
  list(APPEND kernel_chain_sources ${CMAKE_CURRENT_LIST_DIR}/kernels/kernel_chain_cuda.cu)
else()
  list(APPEND kernel_chain_sources ${CMAKE_CURRENT_LIST_DIR}/kernels/kernel_chain_cuda_unavailable.cpp)
endif()
sph_add_test(test_kernels
  ${CMAKE_CURRENT_LIST_DIR}/test_kernel_bodies.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_neighbour_list.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_wall_forces.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_gradient_correction.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_mdbc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_ghost_list.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_cell_neighbours.cpp
  ${kernel_chain_sources})
target_include_directories(test_kernels PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(test_kernels PRIVATE sph_problems)
