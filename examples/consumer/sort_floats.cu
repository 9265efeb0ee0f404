// The consumer's program: the sort_keys example (sorts floats on the device and checks the result
// against std::stable_sort; exits with 77 when there is no CUDA device). Put your own code here.
#include "../sort_keys.cu"
