#include <memory>

#include "hpcdb/core/error.hpp"
#include "hpcdb/shuffle/alltoallv_shuffle.hpp"
#include "hpcdb/shuffle/credited_message_transport.hpp"
#include "hpcdb/shuffle/message_layer_transport.hpp"
#include "hpcdb/shuffle/mpi_one_sided_transport.hpp"
#include "hpcdb/shuffle/mpi_message_wire.hpp"
#include "hpcdb/shuffle/shuffle.hpp"
#include "hpcdb/shuffle/streaming_shuffle.hpp"
#include "hpcdb/shuffle/ucx_am_wire.hpp"
#include "hpcdb/shuffle/ucx_tag_wire.hpp"

namespace hpcdb {

std::vector<ShuffleDesign> available_shuffle_designs() {
  return {ShuffleDesign::mpi_alltoallv, ShuffleDesign::mpi_two_sided, ShuffleDesign::mpi_one_sided,
          ShuffleDesign::message_layer, ShuffleDesign::ucx_tag, ShuffleDesign::ucx_am};
}

std::unique_ptr<Shuffle> make_shuffle(const Cluster& cluster, const ShuffleConfig& config, std::uint64_t expected_rows) {
  validate(config);
  std::unique_ptr<StreamTransport> transport;
  switch (config.design) {
    case ShuffleDesign::mpi_alltoallv: return std::make_unique<AlltoallvShuffle>(cluster, config, expected_rows);
    case ShuffleDesign::mpi_two_sided: transport = std::make_unique<CreditedMessageTransport>(cluster, config,
                                                             std::make_unique<MpiMessageWire>(cluster, config));
      break;
    case ShuffleDesign::mpi_one_sided: transport = std::make_unique<MpiOneSidedTransport>(cluster, config); break;
    case ShuffleDesign::message_layer: transport = std::make_unique<MessageLayerTransport>(cluster, config); break;
    case ShuffleDesign::ucx_tag:
      transport = std::make_unique<CreditedMessageTransport>(cluster, config, std::make_unique<UcxTagWire>(cluster, config));
      break;
    case ShuffleDesign::ucx_am:
      transport = std::make_unique<CreditedMessageTransport>(cluster, config, std::make_unique<UcxAmWire>(cluster, config));
      break;
    default: throw UsageError("--transport " + to_string(config.design) + " is not available in this build");
  }
  return std::make_unique<StreamingShuffle>(cluster, config, std::move(transport));
}

}  // namespace hpcdb
