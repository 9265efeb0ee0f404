// The same program for the CPU, through ringsweep's SIMT backend: the host C++ compiler would not
// take a .cu file as C++, so this .cpp includes it.
#include "sort_floats.cu"
