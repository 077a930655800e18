// Side-by-side driver (not part of Parallax): feeds an EuRoC folder to OpenVINS's VioManager
// in the order its ROS node uses, writes a TUM trajectory and per-frame times, and (OUT_COV) each
// pose's 3×3 position covariance in its global frame (StateHelper's marginal of the IMU position).
#include "core/VioManager.h"
#include "core/VioManagerOptions.h"
#include "state/State.h"
#include "state/StateHelper.h"
#include "types/IMU.h"
#include "utils/sensor_data.h"
#include "utils/opencv_yaml_parse.h"
#include "utils/print.h"
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <algorithm>
using namespace ov_msckf;

static std::vector<std::vector<std::string>> csv(const std::string &p) {
  std::ifstream f(p); std::string line; std::vector<std::vector<std::string>> rows;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> r; std::stringstream ss(line); std::string c;
    while (std::getline(ss, c, ',')) r.push_back(c);
    rows.push_back(r);
  }
  return rows;
}

int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: run_euroc CONFIG EUROC_DIR OUT_TUM OUT_TIMES [dyn=1] [OUT_COV]\n"); return 2; }
  auto parser = std::make_shared<ov_core::YamlParser>(argv[1]);
  std::string verbosity = "WARNING"; ov_core::Printer::setPrintLevel(verbosity);
  VioManagerOptions params; params.print_and_load(parser);
  params.use_multi_threading_subs = false;
  params.use_multi_threading_pubs = false;
  params.num_opencv_threads = 1;
  params.state_options.num_cameras = 1;
  params.use_stereo = false;
  if (argc > 5) params.init_options.init_dyn_use = std::string(argv[5]) == "1";
  if (!parser->successful()) { fprintf(stderr, "config failed\n"); return 2; }
  auto sys = std::make_shared<VioManager>(params);
  std::string dir = argv[2];
  auto imu = csv(dir + "/mav0/imu0/data.csv");
  auto cam = csv(dir + "/mav0/cam0/data.csv");
  std::ofstream out(argv[3]); out << std::setprecision(9) << std::fixed;
  std::ofstream times(argv[4]);
  std::ofstream cov(argc > 6 ? argv[6] : "/dev/null"); cov << std::setprecision(12) << std::scientific;
  size_t c = 0;
  double lastPose = -1;
  for (auto &r : imu) {
    ov_core::ImuData m;
    m.timestamp = std::stod(r[0]) * 1e-9;
    m.wm << std::stod(r[1]), std::stod(r[2]), std::stod(r[3]);
    m.am << std::stod(r[4]), std::stod(r[5]), std::stod(r[6]);
    sys->feed_measurement_imu(m);
    double tImuInC = m.timestamp - sys->get_state()->_calib_dt_CAMtoIMU->value()(0);
    while (c < cam.size() && std::stod(cam[c][0]) * 1e-9 < tImuInC) {
      ov_core::CameraData cd;
      cd.timestamp = std::stod(cam[c][0]) * 1e-9;
      cd.sensor_ids.push_back(0);
      cv::Mat img = cv::imread(dir + "/mav0/cam0/data/" + cam[c][1], cv::IMREAD_GRAYSCALE);
      cd.images.push_back(img);
      cd.masks.push_back(cv::Mat::zeros(img.rows, img.cols, CV_8UC1));
      auto t0 = std::chrono::steady_clock::now();
      sys->feed_measurement_camera(cd);
      auto t1 = std::chrono::steady_clock::now();
      times << c << " " << std::chrono::duration<double, std::milli>(t1 - t0).count() << "\n";
      if (sys->initialized()) {
        auto st = sys->get_state();
        double ts = st->_timestamp;
        if (ts != lastPose) {
          lastPose = ts;
          Eigen::Vector4d q = st->_imu->quat(); Eigen::Vector3d p = st->_imu->pos();
          out << ts << " " << p(0) << " " << p(1) << " " << p(2) << " " << q(0) << " " << q(1) << " " << q(2) << " " << q(3) << "\n";
          Eigen::MatrixXd P = ov_msckf::StateHelper::get_marginal_covariance(st, {st->_imu->p()});
          cov << std::fixed << std::setprecision(9) << ts << std::scientific << std::setprecision(12);
          for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) cov << " " << P(i, j);
          cov << "\n";
        }
      }
      c++;
    }
  }
  return 0;
}
