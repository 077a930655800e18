// Per-frame cost of dlib's HOG and CNN face detectors (+ the 68 landmarks) on 8-bit gray frames, one thread:
// the same Debian dlib that face-landmarks calls, compiled -O2 (a debug build of Parallax compiles
// dlib's HOG templates at -O0 and says nothing about speed).
//   g++ -O2 -std=c++17 Benchmarks/reference/dlib_face_detectors.cpp -o /tmp/dlib-faces -ldlib -lopenblas -ljpeg -lpng
//   OPENBLAS_NUM_THREADS=1 taskset -c 0 /tmp/dlib-faces ~/.local/share/parallax/models/mmod_human_face_detector.dat FRAME.png ...
#include <dlib/dnn.h>
#include <dlib/image_io.h>
#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>
#include <algorithm>
#include <iostream>
using namespace dlib;
template <long n, typename S> using con5d = con<n,5,5,2,2,S>;
template <long n, typename S> using con5  = con<n,5,5,1,1,S>;
template <typename S> using downsampler  = relu<affine<con5d<32, relu<affine<con5d<32, relu<affine<con5d<16,S>>>>>>>>>;
template <typename S> using rcon5  = relu<affine<con5<45,S>>>;
using net_type = loss_mmod<con<1,9,9,1,1,rcon5<rcon5<rcon5<downsampler<input_rgb_image_pyramid<pyramid_down<6>>>>>>>>;
template <class F> double median_ms(F f, int n) { std::vector<double> t; for (int i=0;i<n;++i){auto a=std::chrono::steady_clock::now(); f(); t.push_back(std::chrono::duration<double,std::milli>(std::chrono::steady_clock::now()-a).count());} std::sort(t.begin(),t.end()); return t[n/2]; }
int main(int argc,char**argv){
  net_type net; deserialize(argv[1]) >> net; shape_predictor sp; deserialize("/usr/share/dlib/shape_predictor_68_face_landmarks.dat") >> sp;
  auto hog = get_frontal_face_detector();
  for (int k=2;k<argc;++k){
    array2d<unsigned char> g; load_image(g, argv[k]);
    size_t nh=0,nc=0;
    double th=median_ms([&]{ auto d=hog(g); nh=d.size(); for(auto&r:d) sp(g,r); },7);
    double tc=median_ms([&]{ matrix<rgb_pixel> img; assign_image(img,g); auto d=net.process(img); nc=d.size(); for(auto&r:d) sp(g,r.rect); },5);
    std::cout << argv[k] << " " << g.nc() << "x" << g.nr() << ": HOG+landmarks " << th << " ms (" << nh << " faces), CNN+landmarks " << tc << " ms (" << nc << " faces)\n";
  }
}
