# Output-writer tests; included from tests/CMakeLists.txt. The test reads files back through
# VTK's own readers, so it needs VTK itself (find_package results are directory-scoped, hence
# the second lookup here). VTK 9.1 has no .pvd reader (that is ParaView's), so the .pvd is
# checked with VTK's XML parser instead.
find_package(VTK REQUIRED COMPONENTS IOXML IOXMLParser CommonCore CommonDataModel)

add_executable(test_output ${CMAKE_CURRENT_LIST_DIR}/test_output.cpp)
target_link_libraries(test_output PRIVATE sph_io GTest::gtest_main
                      VTK::IOXML VTK::IOXMLParser VTK::CommonCore VTK::CommonDataModel)
vtk_module_autoinit(TARGETS test_output
                    MODULES VTK::IOXML VTK::IOXMLParser VTK::CommonCore VTK::CommonDataModel)
gtest_discover_tests(test_output DISCOVERY_MODE PRE_TEST PROPERTIES LABELS cpu)
