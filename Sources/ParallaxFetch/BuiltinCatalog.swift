/// The public datasets Parallax reads, as `parallax datasets` lists them and `parallax fetch`
/// downloads them. URLs are the publishers' own; sizes are approximate (for the listing). The
/// publishers give no SHA-256 for these archives, so none is listed: `fetch` verifies what the
/// server announces (the length) and prints the archive's SHA-256, which `--sha256` checks on a
/// later fetch; a mirror's catalog (`--catalog`) can carry exact `bytes` and `sha256`.
extension DatasetCatalog {
    public static let builtinYAML = #"""
datasets:
  - name: euroc
    title: EuRoC MAV (ETH Zürich, ASL)
    what: stereo gray 752×480 @ 20 Hz, IMU 200 Hz, Vicon/Leica 6-DoF ground truth; 11 flights
    licence: research use as stated on the source page (cite Burri et al., IJRR 2016)
    source: https://projects.asl.ethz.ch/datasets/doku.php?id=kmavvisualinertialdatasets
    layout: euroc
    next: |-
      EuRoC's ROS bags ({sequence}.bag, from the same page) carry no CameraInfo: run one with this folder's calibration,
        parallax run chains/vio-mono.yaml {sequence}.bag --out out/vio --calibration cam0={folder}/mav0/cam0/sensor.yaml --calibration imu0={folder}/mav0/imu0/sensor.yaml
    sequences:
      - {name: MH_01_easy, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/machine_hall/MH_01_easy/MH_01_easy.zip', size: 1.6 GB}
      - {name: MH_02_easy, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/machine_hall/MH_02_easy/MH_02_easy.zip', size: 1.4 GB}
      - {name: MH_03_medium, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/machine_hall/MH_03_medium/MH_03_medium.zip', size: 1.3 GB}
      - {name: MH_04_difficult, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/machine_hall/MH_04_difficult/MH_04_difficult.zip', size: 1.1 GB}
      - {name: MH_05_difficult, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/machine_hall/MH_05_difficult/MH_05_difficult.zip', size: 1.2 GB}
      - {name: V1_01_easy, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/vicon_room1/V1_01_easy/V1_01_easy.zip', size: 1.2 GB}
      - {name: V1_02_medium, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/vicon_room1/V1_02_medium/V1_02_medium.zip', size: 0.8 GB}
      - {name: V1_03_difficult, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/vicon_room1/V1_03_difficult/V1_03_difficult.zip', size: 1.0 GB}
      - {name: V2_01_easy, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/vicon_room2/V2_01_easy/V2_01_easy.zip', size: 0.9 GB}
      - {name: V2_02_medium, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/vicon_room2/V2_02_medium/V2_02_medium.zip', size: 1.2 GB}
      - {name: V2_03_difficult, url: 'http://robotics.ethz.ch/~asl-datasets/ijrr_euroc_mav_dataset/vicon_room2/V2_03_difficult/V2_03_difficult.zip', size: 1.3 GB}
  - name: tum-rgbd
    title: TUM RGB-D (TU Munich)
    what: Kinect colour 640×480 + depth @ 30 Hz, motion-capture ground truth
    licence: CC BY 4.0
    source: https://cvg.cit.tum.de/data/datasets/rgbd-dataset
    layout: tum-rgbd
    sequences:
      - {name: fr1_xyz, url: 'https://cvg.cit.tum.de/rgbd/dataset/freiburg1/rgbd_dataset_freiburg1_xyz.tgz', size: 0.5 GB, strip: 1}
      - {name: fr1_desk, url: 'https://cvg.cit.tum.de/rgbd/dataset/freiburg1/rgbd_dataset_freiburg1_desk.tgz', size: 0.4 GB, strip: 1}
      - {name: fr1_room, url: 'https://cvg.cit.tum.de/rgbd/dataset/freiburg1/rgbd_dataset_freiburg1_room.tgz', size: 0.8 GB, strip: 1}
      - {name: fr2_desk, url: 'https://cvg.cit.tum.de/rgbd/dataset/freiburg2/rgbd_dataset_freiburg2_desk.tgz', size: 1.6 GB, strip: 1}
      - {name: fr3_office, url: 'https://cvg.cit.tum.de/rgbd/dataset/freiburg3/rgbd_dataset_freiburg3_long_office_household.tgz', size: 1.6 GB, strip: 1}
  - name: tum-vi
    title: TUM-VI (TU Munich), EuRoC export 512×512
    what: stereo fisheye gray 512×512 @ 20 Hz, IMU 200 Hz, motion-capture ground truth (room sequences)
    licence: CC BY 4.0
    source: https://cvg.cit.tum.de/data/datasets/visual-inertial-dataset
    layout: euroc
    sequences:
      - {name: room1, url: 'https://cdn3.vision.in.tum.de/tumvi/exported/euroc/512_16/dataset-room1_512_16.tar', size: 1.5 GB, strip: 1}
      - {name: room2, url: 'https://cdn3.vision.in.tum.de/tumvi/exported/euroc/512_16/dataset-room2_512_16.tar', size: 1.5 GB, strip: 1}
      - {name: room3, url: 'https://cdn3.vision.in.tum.de/tumvi/exported/euroc/512_16/dataset-room3_512_16.tar', size: 1.5 GB, strip: 1}
      - {name: room4, url: 'https://cdn3.vision.in.tum.de/tumvi/exported/euroc/512_16/dataset-room4_512_16.tar', size: 1.5 GB, strip: 1}
      - {name: room5, url: 'https://cdn3.vision.in.tum.de/tumvi/exported/euroc/512_16/dataset-room5_512_16.tar', size: 1.5 GB, strip: 1}
      - {name: room6, url: 'https://cdn3.vision.in.tum.de/tumvi/exported/euroc/512_16/dataset-room6_512_16.tar', size: 1.5 GB, strip: 1}
  - name: kitti-poses
    title: KITTI odometry ground-truth poses (KIT, TTIC)
    what: 3×4 poses of sequences 00–10 (no images)
    licence: CC BY-NC-SA 3.0
    source: https://www.cvlibs.net/datasets/kitti/eval_odometry.php
    reads: 'trajectories: parallax eval trajectory --truth DIR/poses/00.txt (KITTI format, 12 columns)'
    sequences:
      - {name: poses, url: 'https://s3.eu-central-1.amazonaws.com/avg-kitti/data_odometry_poses.zip', size: 4 MB, strip: 2}
  - name: middlebury-stereo
    title: Middlebury stereo 2014
    what: rectified colour pairs up to 3000×2000 with calibration and dense disparity truth
    licence: research use; cite Scharstein et al., GCPR 2014
    source: https://vision.middlebury.edu/stereo/data/scenes2014/
    layout: middlebury
    sequences:
      - {name: Adirondack, url: 'https://vision.middlebury.edu/stereo/data/scenes2014/zip/Adirondack-perfect.zip', size: 0.1 GB, strip: 1}
      - {name: Motorcycle, url: 'https://vision.middlebury.edu/stereo/data/scenes2014/zip/Motorcycle-perfect.zip', size: 0.1 GB, strip: 1}
      - {name: Piano, url: 'https://vision.middlebury.edu/stereo/data/scenes2014/zip/Piano-perfect.zip', size: 0.1 GB, strip: 1}
      - {name: Pipes, url: 'https://vision.middlebury.edu/stereo/data/scenes2014/zip/Pipes-perfect.zip', size: 0.1 GB, strip: 1}
      - {name: Playroom, url: 'https://vision.middlebury.edu/stereo/data/scenes2014/zip/Playroom-perfect.zip', size: 0.1 GB, strip: 1}
      - {name: Playtable, url: 'https://vision.middlebury.edu/stereo/data/scenes2014/zip/Playtable-perfect.zip', size: 0.1 GB, strip: 1}
      - {name: Recycle, url: 'https://vision.middlebury.edu/stereo/data/scenes2014/zip/Recycle-perfect.zip', size: 0.1 GB, strip: 1}
      - {name: Shelves, url: 'https://vision.middlebury.edu/stereo/data/scenes2014/zip/Shelves-perfect.zip', size: 0.1 GB, strip: 1}
      - {name: Vintage, url: 'https://vision.middlebury.edu/stereo/data/scenes2014/zip/Vintage-perfect.zip', size: 0.1 GB, strip: 1}
  - name: middlebury-flow
    title: Middlebury optical flow
    what: frame pairs (frame10/frame11 PNG) and dense flow truth (.flo)
    licence: research use; cite Baker et al., IJCV 2011
    source: https://vision.middlebury.edu/flow/data/
    reads: 'each scene''s frame10/frame11 as a folder of images; the .flo truth through DenseFiles.readFlo (the KLT benchmark)'
    sequences:
      - {name: gt-flow, url: 'https://vision.middlebury.edu/flow/data/comp/zip/other-gt-flow.zip', size: 7 MB, strip: 1}
      - {name: color-twoframes, url: 'https://vision.middlebury.edu/flow/data/comp/zip/other-color-twoframes.zip', size: 8 MB, strip: 1}
  - name: otb
    title: OTB object tracking benchmark (Hanyang University)
    what: image sequences with one box per frame (groundtruth_rect.txt); a selection of the 100
    licence: research use as stated on the source page
    source: http://cvlab.hanyang.ac.kr/tracker_benchmark/datasets.html
    layout: otb
    sequences:
      - {name: Basketball, url: 'http://cvlab.hanyang.ac.kr/tracker_benchmark/seq/Basketball.zip', size: 30 MB, strip: 1}
      - {name: Biker, url: 'http://cvlab.hanyang.ac.kr/tracker_benchmark/seq/Biker.zip', size: 30 MB, strip: 1}
      - {name: Car4, url: 'http://cvlab.hanyang.ac.kr/tracker_benchmark/seq/Car4.zip', size: 30 MB, strip: 1}
      - {name: David, url: 'http://cvlab.hanyang.ac.kr/tracker_benchmark/seq/David.zip', size: 30 MB, strip: 1}
      - {name: Dudek, url: 'http://cvlab.hanyang.ac.kr/tracker_benchmark/seq/Dudek.zip', size: 30 MB, strip: 1}
      - {name: FaceOcc1, url: 'http://cvlab.hanyang.ac.kr/tracker_benchmark/seq/FaceOcc1.zip', size: 30 MB, strip: 1}
      - {name: Football, url: 'http://cvlab.hanyang.ac.kr/tracker_benchmark/seq/Football.zip', size: 30 MB, strip: 1}
      - {name: Jogging, url: 'http://cvlab.hanyang.ac.kr/tracker_benchmark/seq/Jogging.zip', size: 30 MB, strip: 1}
      - {name: Singer1, url: 'http://cvlab.hanyang.ac.kr/tracker_benchmark/seq/Singer1.zip', size: 30 MB, strip: 1}
      - {name: Walking, url: 'http://cvlab.hanyang.ac.kr/tracker_benchmark/seq/Walking.zip', size: 30 MB, strip: 1}
  - name: aflw2000-3d
    title: AFLW2000-3D (CBSR, CASIA)
    what: 2000 face images 450×450 with head pose (pitch, yaw, roll) and 68 3D landmarks (.mat)
    licence: research use only (the 3DDFA project's terms)
    source: http://www.cbsr.ia.ac.cn/users/xiangyuzhu/projects/3DDFA/main.htm
    layout: aflw2000
    sequences:
      - {name: AFLW2000, url: 'http://www.cbsr.ia.ac.cn/users/xiangyuzhu/projects/3DDFA/Database/AFLW2000-3D.zip', size: 80 MB, strip: 1}
"""#

    /// The catalog that ships with Parallax.
    public static var builtin: DatasetCatalog {
        get throws { try DatasetCatalog(yaml: builtinYAML, file: "the built-in catalog") }
    }
}
